package org.ferry.server;

import org.ferry.gsi.context.GsiEngines;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.persistence.autoconfigure.EntityScan;
import org.springframework.data.jpa.repository.config.EnableJpaRepositories;

/**
 * The ferry-server application: REST API, scheduler and (when configured) a personal GridFTP
 * endpoint in one JVM. Spring arguments such as {@code --server.port=9090} work on the command
 * line.
 */
@SpringBootApplication(scanBasePackages = "org.ferry")
@EntityScan(basePackages = "org.ferry.api.domain")
@EnableJpaRepositories(basePackages = "org.ferry.api.repository")
public class FerryServerApplication {

    /**
     * @param args Spring Boot arguments ({@code --name=value}), or {@code user ...} to manage
     *     accounts (see {@link org.ferry.server.admin.UserCommand})
     */
    public static void main(String[] args) {
        if (args.length > 0 && args[0].equals("user")) {
            System.exit(org.ferry.server.admin.UserCommand.run(java.util.Arrays.copyOfRange(args, 1, args.length)));
        }
        // before the first TLS handshake: the personal endpoint accepts DCAU data connections, and
        // globus initiators send a DN as SNI, which the JDK's TLS server otherwise rejects
        GsiEngines.ignoreServerNameIndication();
        SpringApplication.run(FerryServerApplication.class, args);
    }
}
