package org.ferry.server;

import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletException;
import org.ferry.gsi.context.GsiEngines;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.servlet.support.SpringBootServletInitializer;

/**
 * Starts ferry-server inside a servlet container (the WAR, {@code webapp/target/ferry.war}, on
 * Tomcat 11): the same application as the executable jar, configured from environment variables,
 * JVM system properties ({@code CATALINA_OPTS}) and {@code $FERRY_HOME/ferry.properties}. The
 * container owns the listeners: TLS is its connector's (README "Production deployment").
 */
public class FerryServletInitializer extends SpringBootServletInitializer {

    private static final Logger log = LoggerFactory.getLogger(FerryServletInitializer.class);

    @Override
    public void onStartup(ServletContext servletContext) throws ServletException {
        boolean setByContainer = GsiEngines.serverNameIndicationIgnored();
        // as main does; effective only if no TLS server of this JVM started before (a TLS
        // connector of the container may have): hence the setting in CATALINA_OPTS
        GsiEngines.ignoreServerNameIndication();
        if (!setByContainer) {
            log.warn(
                    "Set -D{}=server_name in CATALINA_OPTS (bin/setenv.sh): DCAU data connections from globus"
                            + " peers to an endpoint in this JVM fail when the container's TLS started first",
                    GsiEngines.DISABLE_SERVER_EXTENSIONS_PROPERTY);
        }
        super.onStartup(servletContext);
    }

    @Override
    protected SpringApplicationBuilder configure(SpringApplicationBuilder builder) {
        return builder.sources(FerryServerApplication.class);
    }
}
