package org.ferry.server.https;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.catalina.connector.Connector;
import org.apache.coyote.http11.AbstractHttp11Protocol;
import org.apache.tomcat.util.net.SSLHostConfig;
import org.apache.tomcat.util.net.SSLHostConfigCertificate;
import org.ferry.api.security.HttpsProperties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.tomcat.TomcatWebServer;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.boot.web.server.context.WebServerInitializedEvent;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/**
 * The HTTPS listener ({@code ferry.https.port}): a second Tomcat connector beside the HTTP one,
 * with the host certificate and key (PEM), asking every client for a certificate (optional:
 * token and password logins work over it too). Client chains, proxy certificates included, are
 * validated by the application, not by TLS (see {@link AcceptAnyClientChain}). Prints
 * {@code HTTPS listener with client certificates on port N} once it listens.
 */
@Component
@ConditionalOnProperty("ferry.https.port")
public class HttpsListener implements WebServerFactoryCustomizer<TomcatServletWebServerFactory> {

    private static final Logger log = LoggerFactory.getLogger(HttpsListener.class);

    private final HttpsProperties https;
    private final String defaultAddress;
    private Connector connector;

    /**
     * @param https the listener's settings
     * @param defaultAddress {@code server.address}, the listen address unless {@code ferry.https.address} is set
     */
    public HttpsListener(HttpsProperties https, @Value("${server.address:127.0.0.1}") String defaultAddress) {
        this.https = https;
        this.defaultAddress = defaultAddress;
    }

    @Override
    public void customize(TomcatServletWebServerFactory factory) {
        requireFile("ferry.https.host-cert", https.hostCertFile());
        requireFile("ferry.https.host-key", https.hostKeyFile());
        requireFile("ferry.https.ca-dir", https.caDirectory());
        requireFile("ferry.https.gridmap", https.gridmapFile());
        connector = new Connector(TomcatServletWebServerFactory.DEFAULT_PROTOCOL);
        connector.setPort(https.port());
        connector.setScheme("https");
        connector.setSecure(true);
        AbstractHttp11Protocol<?> protocol = (AbstractHttp11Protocol<?>) connector.getProtocolHandler();
        protocol.setSSLEnabled(true);
        try {
            protocol.setAddress(InetAddress.getByName(https.address() == null ? defaultAddress : https.address()));
        } catch (UnknownHostException e) {
            throw new IllegalStateException("ferry.https.address: unknown host " + e.getMessage(), e);
        }
        SSLHostConfig ssl = new SSLHostConfig();
        ssl.setCertificateVerification("optional");
        ssl.setTrustManagerClassName(AcceptAnyClientChain.class.getName());
        SSLHostConfigCertificate certificate =
                new SSLHostConfigCertificate(ssl, SSLHostConfigCertificate.Type.UNDEFINED);
        certificate.setCertificateFile(https.hostCertFile());
        certificate.setCertificateKeyFile(https.hostKeyFile());
        ssl.addCertificate(certificate);
        connector.addSslHostConfig(ssl);
        factory.addAdditionalConnectors(connector);
    }

    private static void requireFile(String property, String file) {
        if (!Files.isReadable(Path.of(file))) {
            throw new IllegalStateException(
                    "cannot set up the HTTPS listener: " + property + " " + file + " is missing or unreadable");
        }
    }

    /** Logs the port the listener got (the configured one may be 0). */
    @EventListener
    public void onStarted(WebServerInitializedEvent event) {
        if (connector != null && event.getWebServer() instanceof TomcatWebServer) {
            log.info("HTTPS listener with client certificates on port {}", connector.getLocalPort());
        }
    }

    /** @return the port the HTTPS listener listens on, or -1 before it started */
    public int port() {
        return connector == null ? -1 : connector.getLocalPort();
    }
}
