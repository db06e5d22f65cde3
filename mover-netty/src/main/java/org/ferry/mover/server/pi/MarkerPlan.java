package org.ferry.mover.server.pi;

import java.util.List;
import java.util.function.LongFunction;
import java.util.function.Supplier;
import org.ferry.mover.protocol.FtpReply;

/**
 * The markers of one running transfer and how often they go out.
 *
 * @param perfMillis period of the 112 perf markers (GFD.020 "Performance Monitoring"), 0 for none
 * @param perf the perf markers of this moment (one per stripe), given the epoch milliseconds
 * @param rangeMillis period of the 111 range markers (GFD.020 "Restarting"), 0 for none
 * @param ranges the ranges received since the last call (null if none new), or null when the
 *     transfer reports no ranges
 */
record MarkerPlan(long perfMillis, LongFunction<List<FtpReply>> perf, long rangeMillis, Supplier<String> ranges) {}
