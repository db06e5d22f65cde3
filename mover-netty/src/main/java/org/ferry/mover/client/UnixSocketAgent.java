package org.ferry.mover.client;

import java.io.EOFException;
import java.io.IOException;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.util.List;
import org.apache.sshd.agent.SshAgent;
import org.apache.sshd.agent.SshAgentFactory;
import org.apache.sshd.agent.SshAgentServer;
import org.apache.sshd.agent.common.AbstractAgentProxy;
import org.apache.sshd.common.FactoryManager;
import org.apache.sshd.common.channel.ChannelFactory;
import org.apache.sshd.common.session.ConnectionService;
import org.apache.sshd.common.session.Session;
import org.apache.sshd.common.util.buffer.Buffer;
import org.apache.sshd.common.util.buffer.ByteArrayBuffer;

/**
 * The ssh-agent on its Unix socket ({@code SSH_AUTH_SOCK}), through Java's own Unix domain sockets
 * (JDK 16+): Apache MINA SSHD speaks the agent protocol ({@link AbstractAgentProxy}: list keys,
 * sign) and this class only carries its messages, each a 4-byte length and a body (the agent
 * protocol, draft-miller-ssh-agent section 3). No forwarding: the remote side never sees the agent.
 */
final class UnixSocketAgent extends AbstractAgentProxy {

    private final SocketChannel socket;

    private UnixSocketAgent(SocketChannel socket) {
        super(null);
        this.socket = socket;
    }

    /** @return a factory that connects to the agent at {@code path} for each SSH session */
    static SshAgentFactory factory(Path path) {
        return new SshAgentFactory() {
            @Override
            public List<ChannelFactory> getChannelForwardingFactories(FactoryManager manager) {
                return List.of();
            }

            @Override
            public SshAgent createClient(Session session, FactoryManager manager) throws IOException {
                return new UnixSocketAgent(SocketChannel.open(UnixDomainSocketAddress.of(path)));
            }

            @Override
            public SshAgentServer createServer(ConnectionService service) {
                throw new UnsupportedOperationException("no agent forwarding");
            }
        };
    }

    @Override
    protected synchronized Buffer request(Buffer buffer) throws IOException {
        int end = buffer.wpos();
        buffer.wpos(0);
        buffer.putUInt(end - 4);
        buffer.wpos(end);
        ByteBuffer out = ByteBuffer.wrap(buffer.array(), buffer.rpos(), buffer.available());
        while (out.hasRemaining()) {
            socket.write(out);
        }
        ByteBuffer length = readFully(4);
        int size = length.getInt();
        if (size < 0 || size > 256 * 1024) {
            throw new IOException("ssh-agent reply of " + size + " bytes");
        }
        return new ByteArrayBuffer(readFully(size).array());
    }

    private ByteBuffer readFully(int size) throws IOException {
        ByteBuffer in = ByteBuffer.allocate(size);
        while (in.hasRemaining()) {
            if (socket.read(in) < 0) {
                throw new EOFException("ssh-agent closed the connection");
            }
        }
        return in.flip();
    }

    @Override
    public boolean isOpen() {
        return socket.isOpen();
    }

    @Override
    public void close() throws IOException {
        try {
            super.close();
        } finally {
            socket.close();
        }
    }
}
