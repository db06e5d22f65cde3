package org.ferry.scheduler.optimize;

/**
 * The optimizer's memory of one endpoint pair between intervals.
 *
 * @param concurrency the session pairs allowed now
 * @param ema the moving average of the throughput, bytes per second (0: nothing measured yet)
 * @param lastSample the throughput of the last interval, bytes per second
 * @param lastStep the last decision's change: +1, -1 or 0
 * @param steady intervals in a row without a change
 */
public record PairState(int concurrency, double ema, double lastSample, int lastStep, int steady) {

    /** @return the state of a pair never seen before, starting at the given value */
    public static PairState start(int concurrency) {
        return new PairState(concurrency, 0, 0, 0, 0);
    }
}
