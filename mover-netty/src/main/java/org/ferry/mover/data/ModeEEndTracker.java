package org.ferry.mover.data;

import java.io.IOException;

/**
 * Decides when a MODE E transfer has ended (GFD.020; GFD.020 "Extended Block Mode"): once an EOF
 * header has announced the number of connections and that many EODs have arrived, across all
 * connections, in any order. It never concludes EOF from "all currently open connections sent EOD",
 * because more connections may still be arriving. Thread-safe.
 */
final class ModeEEndTracker {

    /** Sanity bound on the EOD count an EOF may announce (globus allows far fewer streams). */
    static final long MAX_EOD_COUNT = 65_536;

    private final DataTransfer transfer;
    private long expectedEods = -1;
    private long eods;

    ModeEEndTracker(DataTransfer transfer) {
        this.transfer = transfer;
    }

    /** One connection sent its EOD. */
    synchronized void eod() {
        eods++;
        check();
    }

    /** The EOF header arrived, announcing {@code count} EODs in all. */
    synchronized void eof(long count) {
        if (expectedEods >= 0) {
            transfer.fail(new IOException("MODE E: second EOF header"));
        } else if (count < 1 || count > MAX_EOD_COUNT) {
            transfer.fail(new IOException("MODE E: EOF announces " + count + " connections"));
        } else {
            expectedEods = count;
            check();
        }
    }

    private void check() {
        if (expectedEods < 0) {
            return;
        }
        if (eods == expectedEods) {
            transfer.succeed();
        } else if (eods > expectedEods) {
            transfer.fail(new IOException("MODE E: " + eods + " EODs but EOF announced " + expectedEods));
        }
    }
}
