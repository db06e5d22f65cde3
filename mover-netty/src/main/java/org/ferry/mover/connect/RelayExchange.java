package org.ferry.mover.connect;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Properties;
import java.util.Set;
import org.apache.sshd.client.channel.ChannelExec;
import org.apache.sshd.client.channel.ClientChannelEvent;
import org.apache.sshd.client.session.ClientSession;

/** One request and its answer over an SSH exec channel ({@link ConnectProtocol}), from the agent's side. */
final class RelayExchange {

    private RelayExchange() {}

    /**
     * @param session an authenticated session
     * @param command {@link ConnectProtocol#SETUP_COMMAND} or {@link ConnectProtocol#HELLO_COMMAND}
     * @param request what to send
     * @param timeout how long the relay may take
     * @return the answer (with {@link ConnectProtocol#ERROR} when refused)
     * @throws IOException if the channel fails or the relay does not answer in time
     */
    static Properties exchange(ClientSession session, String command, Properties request, Duration timeout)
            throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (ChannelExec exec = session.createExecChannel(command)) {
            exec.setIn(new ByteArrayInputStream(ConnectProtocol.bytes(request)));
            exec.setOut(out);
            exec.setRedirectErrorStream(true);
            exec.open().verify(timeout);
            Set<ClientChannelEvent> events = exec.waitFor(EnumSet.of(ClientChannelEvent.CLOSED), timeout);
            if (!events.contains(ClientChannelEvent.CLOSED)) {
                throw new IOException("the relay did not answer " + command + " within " + timeout.toSeconds() + " s");
            }
        }
        return ConnectProtocol.read(new ByteArrayInputStream(out.toByteArray()));
    }
}
