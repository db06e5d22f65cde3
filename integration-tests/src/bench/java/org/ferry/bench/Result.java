package org.ferry.bench;

/**
 * One row of a benchmark table: Ferry's figure beside a peer's, in the same unit, where a higher
 * figure is better unless {@code lowerIsBetter}.
 *
 * @param benchmark benchmark name, e.g. {@code memory}
 * @param scenario what was measured, e.g. {@code p=4, 8 GiB}
 * @param unit unit of both figures, e.g. {@code Gbit/s}
 * @param ferry Ferry's figure
 * @param peer name of the peer, e.g. {@code globus-url-copy -p 4}
 * @param peerValue the peer's figure (NaN when it could not run)
 * @param target the required ratio Ferry/peer ({@code >=} it, or {@code <=} it if lowerIsBetter); NaN for none
 * @param lowerIsBetter true where a smaller figure wins (heap bytes)
 */
record Result(
        String benchmark,
        String scenario,
        String unit,
        double ferry,
        String peer,
        double peerValue,
        double target,
        boolean lowerIsBetter) {

    /** @return Ferry / peer (NaN when the peer has no figure) */
    double ratio() {
        return peerValue == 0 || Double.isNaN(peerValue) ? Double.NaN : ferry / peerValue;
    }

    /** @return "yes"/"NO" against the target, or "-" when there is none */
    String met() {
        double ratio = ratio();
        if (Double.isNaN(target) || Double.isNaN(ratio)) {
            return "-";
        }
        return (lowerIsBetter ? ratio <= target : ratio >= target) ? "yes" : "NO";
    }

    /** @return the target as text, e.g. {@code >= 0.85} */
    String targetText() {
        return Double.isNaN(target) ? "-" : (lowerIsBetter ? "<= " : ">= ") + String.format("%.2f", target);
    }
}
