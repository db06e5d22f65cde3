package org.ferry.server;

import com.icegreen.greenmail.Managers;
import com.icegreen.greenmail.mail.MailAddress;
import com.icegreen.greenmail.smtp.SmtpManager;
import com.icegreen.greenmail.smtp.SmtpState;
import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetup;
import jakarta.mail.internet.MimeMessage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * GreenMail, a real SMTP server, for one test class: on a loopback port fixed for the class (so
 * the service's {@code spring.mail.port} stays right across a {@link #stop()} and a
 * {@link #start()}), started before the class's tests and stopped after them. By default it
 * accepts every message; {@link #refuseRecipients} and {@link #refuseData} make it answer every
 * {@code RCPT TO} or every end of {@code DATA} with the test's 5xx reply instead, through
 * GreenMail's own check hooks ({@link SmtpManager#checkRecipient}, {@link SmtpManager#checkData}),
 * so the refusal comes out of a real SMTP conversation.
 */
final class TestSmtp implements BeforeAllCallback, AfterAllCallback {

    private final int port = freePort();
    private final AtomicInteger refusals = new AtomicInteger();
    private volatile String recipientReply;
    private volatile String dataReply;
    private volatile GreenMail server;

    /**
     * The service's {@code spring.mail.*} for this server (short timeouts: a stopped server is
     * found out quickly) and {@code ferry.mail.from}.
     *
     * @param registry the test class's dynamic properties
     */
    void register(DynamicPropertyRegistry registry) {
        registry.add("spring.mail.host", () -> "127.0.0.1");
        registry.add("spring.mail.port", () -> String.valueOf(port));
        registry.add("spring.mail.properties.mail.smtp.connectiontimeout", () -> "5000");
        registry.add("spring.mail.properties.mail.smtp.timeout", () -> "5000");
        registry.add("ferry.mail.from", () -> "ferry@example.test");
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        start();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        stop();
    }

    /** Starts a fresh server (no messages yet) on the class's port. */
    synchronized void start() {
        GreenMail started = new PolicyGreenMail(new ServerSetup(port, "127.0.0.1", ServerSetup.PROTOCOL_SMTP));
        started.start();
        server = started;
    }

    /** Stops the server: connections to its port are refused until {@link #start()}. */
    synchronized void stop() {
        if (server != null) {
            server.stop();
        }
    }

    /** @return true while the server listens */
    boolean isRunning() {
        GreenMail current = server;
        return current != null && current.isRunning();
    }

    /** @return the messages this server (since its last start) accepted */
    MimeMessage[] received() {
        GreenMail current = server;
        return current == null || !current.isRunning() ? new MimeMessage[0] : current.getReceivedMessages();
    }

    /**
     * Refuses every recipient from now on.
     *
     * @param reply the SMTP reply, e.g. {@code 550 5.1.1 mailbox unavailable}
     */
    void refuseRecipients(String reply) {
        recipientReply = reply;
        dataReply = null;
    }

    /**
     * Accepts recipients but refuses every message at the end of its data from now on.
     *
     * @param reply the SMTP reply, e.g. {@code 554 5.6.0 message refused}
     */
    void refuseData(String reply) {
        recipientReply = null;
        dataReply = reply;
    }

    /** Accepts messages again. */
    void accept() {
        recipientReply = null;
        dataReply = null;
    }

    /** @return how many RCPT or DATA commands were refused so far */
    int refusals() {
        return refusals.get();
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** GreenMail whose SMTP checks answer with the policy's replies (null: GreenMail's own: accept). */
    private final class PolicyGreenMail extends GreenMail {

        PolicyGreenMail(ServerSetup setup) {
            super(setup);
            // start() builds the services from these managers (the constructor's were never started)
            managers = new PolicyManagers();
        }
    }

    private final class PolicyManagers extends Managers {

        private final SmtpManager smtp = new SmtpManager(getImapHostManager(), getUserManager()) {
            @Override
            public String checkRecipient(SmtpState state, MailAddress recipient) {
                return refused(recipientReply);
            }

            @Override
            public String checkData(SmtpState state) {
                return refused(dataReply);
            }
        };

        @Override
        public SmtpManager getSmtpManager() {
            return smtp;
        }
    }

    private String refused(String reply) {
        if (reply != null) {
            refusals.incrementAndGet();
        }
        return reply;
    }
}
