package org.ferry.api.gridftp;

import java.time.Duration;
import org.ferry.mover.client.GridFtpClient;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The one GridFTP client of the application (it owns an event loop; closed on shutdown). */
@Configuration
public class GridFtpClientConfiguration {

    /**
     * @param replyTimeoutSeconds how long any one GridFTP reply may take
     *     ({@code ferry.gridftp.reply-timeout-seconds}, default 120)
     * @return the client
     */
    @Bean(destroyMethod = "close")
    public GridFtpClient gridFtpClient(@Value("${ferry.gridftp.reply-timeout-seconds:120}") long replyTimeoutSeconds) {
        return new GridFtpClient(Duration.ofSeconds(replyTimeoutSeconds));
    }
}
