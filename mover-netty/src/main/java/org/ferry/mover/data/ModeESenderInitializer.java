package org.ferry.mover.data;

import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;

/** Installs the MODE E encoder and a sender on a new connection. */
final class ModeESenderInitializer extends ChannelInitializer<Channel> {
    private final ModeESender sender;

    ModeESenderInitializer(ModeESender sender) {
        this.sender = sender;
    }

    @Override
    protected void initChannel(Channel ch) {
        ch.pipeline().addLast(new ModeEFrameEncoder(), sender);
    }
}
