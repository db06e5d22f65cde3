package org.ferry.mover.server.command;

import java.util.ArrayList;
import java.util.List;
import org.ferry.mover.protocol.FtpReply;
import org.ferry.mover.server.dtp.DataTransferProcess;
import org.ferry.mover.server.dtp.StripedDtp;
import org.ferry.mover.server.pi.CommandContext;
import org.ferry.mover.server.pi.CommandHandler;

/**
 * SITE STRIPES (Ferry-specific status query): lists the server's DTPs in stripe order with the
 * bytes each has moved in finished transfers, e.g.
 * {@code 200-Stripes: 2} / {@code  0 127.0.0.1:7001 bytes=33554432} / {@code 200 End.}. Lets an
 * operator, or a test, see that data went through every data node.
 */
public final class SiteStripesHandler implements CommandHandler {

    private final StripedDtp dtp;

    /** @param dtp the server's DTPs */
    public SiteStripesHandler(StripedDtp dtp) {
        this.dtp = dtp;
    }

    @Override
    public String verb() {
        return "SITE STRIPES";
    }

    @Override
    public void handle(CommandContext ctx, String argument) {
        List<DataTransferProcess> dtps = dtp.dtps();
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < dtps.size(); i++) {
            lines.add(
                    " " + i + " " + dtps.get(i).name() + " bytes=" + dtps.get(i).bytesTransferred());
        }
        ctx.reply(FtpReply.multiline(200, "Stripes: " + dtps.size(), lines, "End."));
    }
}
