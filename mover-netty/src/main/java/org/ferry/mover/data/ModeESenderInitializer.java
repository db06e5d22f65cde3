package org.ferry.mover.data;

import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;

/**
 * Installs the MODE E encoder and a sender on a new connection, by name: a cached connection's next
 * transfer finds them by name for every file (by class, Netty asks {@code Class.isAssignableFrom}
 * of every handler, a runtime call under the C1-only JIT).
 */
final class ModeESenderInitializer extends ChannelInitializer<Channel> {
    private final ModeESender sender;

    ModeESenderInitializer(ModeESender sender) {
        this.sender = sender;
    }

    @Override
    protected void initChannel(Channel ch) {
        ch.pipeline().addLast(ModeEFrameEncoder.NAME, new ModeEFrameEncoder()).addLast(ModeESender.NAME, sender);
    }
}
