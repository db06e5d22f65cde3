package org.ferry.mover.server.command;

import java.util.List;
import org.ferry.mover.server.CommandContext;
import org.ferry.mover.server.FtpException;

/**
 * REST n | a-b,c-d (RFC 3659 section 5 stream restart; GFD.020 MODE E ranges, end exclusive,
 * gridftp-protocol.md section 2.6). Applies to the next RETR/STOR only.
 * {@code 350 Restart Marker OK. Send STORE or RETR to initiate transfer.}; {@code 501 bad parameter.}
 */
public final class RestHandler implements CommandHandler {

    @Override
    public String verb() {
        return "REST";
    }

    @Override
    public List<String> features() {
        return List.of("REST STREAM");
    }

    @Override
    public void handle(CommandContext ctx, String argument) throws FtpException {
        String arg = argument.strip();
        if (arg.matches("\\d{1,18}")) {
            ctx.session().restart(Long.parseLong(arg), null);
        } else if (arg.matches("\\d{1,18}-\\d{1,18}(,\\d{1,18}-\\d{1,18})*")) {
            for (String range : arg.split(",")) {
                String[] ends = range.split("-");
                if (Long.parseLong(ends[0]) > Long.parseLong(ends[1])) {
                    throw new FtpException(501, "bad parameter.");
                }
            }
            ctx.session().restart(0, arg);
        } else {
            throw new FtpException(501, "bad parameter.");
        }
        ctx.reply(350, "Restart Marker OK. Send STORE or RETR to initiate transfer.");
    }

    /**
     * The prefix already transferred according to MODE E restart ranges: the end of a range that
     * starts at 0 (after merging), e.g. {@code 0-100,100-200} gives 200.
     *
     * @param ranges REST ranges text
     * @return the length of the contiguous prefix from 0; -1 if the ranges leave holes after it
     */
    static long contiguousPrefix(String ranges) {
        long end = 0;
        List<long[]> list = new java.util.ArrayList<>();
        for (String range : ranges.split(",")) {
            String[] ends = range.split("-");
            list.add(new long[] {Long.parseLong(ends[0]), Long.parseLong(ends[1])});
        }
        list.sort(java.util.Comparator.comparingLong(r -> r[0]));
        for (long[] r : list) {
            if (r[0] > end) {
                return -1;
            }
            end = Math.max(end, r[1]);
        }
        return end;
    }
}
