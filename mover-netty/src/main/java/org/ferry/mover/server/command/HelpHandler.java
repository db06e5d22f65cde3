package org.ferry.mover.server.command;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.ferry.mover.protocol.FtpReply;
import org.ferry.mover.server.pi.CommandContext;
import org.ferry.mover.server.pi.CommandHandler;

/**
 * HELP [command] (RFC 959 section 4.1.3): the recognised commands, eight per line, in globus'
 * layout ({@code 214-The following commands are recognized:} ... {@code 214 End};
 * RFC 959 section 4.1, GFD.020). globus-url-copy parses SITE HELP for the SITE commands it may
 * use, so compound verbs are listed in full ({@code SITE CLIENTINFO}).
 */
public class HelpHandler implements CommandHandler {

    @Override
    public String verb() {
        return "HELP";
    }

    @Override
    public boolean allowedBeforeLogin() {
        return true;
    }

    @Override
    public void handle(CommandContext ctx, String argument) {
        List<String> verbs = ctx.registry().verbs();
        if (!argument.isBlank()) {
            String wanted = argument.strip().toUpperCase(Locale.ROOT);
            if (verbs.stream().noneMatch(v -> v.equals(wanted) || v.equals("SITE " + wanted))) {
                ctx.reply(502, "Unknown command '" + argument.strip() + "'.");
                return;
            }
            ctx.reply(FtpReply.multiline(214, "Help for " + wanted + ":", List.of(" " + wanted), "End."));
            return;
        }
        List<String> body = new ArrayList<>();
        StringBuilder line = new StringBuilder();
        int count = 0;
        for (String verb : verbs) {
            line.append(' ').append(verb);
            if (++count % 8 == 0) {
                body.add(line.toString());
                line.setLength(0);
            }
        }
        if (line.length() > 0) {
            body.add(line.toString());
        }
        ctx.reply(FtpReply.multiline(214, "The following commands are recognized:", body, "End"));
    }
}
