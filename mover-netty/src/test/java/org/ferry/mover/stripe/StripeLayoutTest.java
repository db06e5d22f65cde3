package org.ferry.mover.stripe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The Blocked stripe layout (GFD.020 "Options to RETR"): block i belongs to stripe i mod n. */
class StripeLayoutTest {

    @Test
    void blocksGoRoundRobinOverTheStripes() {
        StripeLayout layout = new StripeLayout(100, 3);
        assertThat(layout.stripeOf(0)).isZero();
        assertThat(layout.stripeOf(99)).isZero();
        assertThat(layout.stripeOf(100)).isEqualTo(1);
        assertThat(layout.stripeOf(250)).isEqualTo(2);
        assertThat(layout.stripeOf(300)).isZero();
        assertThat(layout.blockOffset(0, 0)).isZero();
        assertThat(layout.blockOffset(1, 0)).isEqualTo(100);
        assertThat(layout.blockOffset(2, 1)).isEqualTo(500);
    }

    @Test
    void stripeLengthsAddUpAndMatchTheBlocksOfEachStripe() {
        for (int stripes = 1; stripes <= 5; stripes++) {
            for (long length : new long[] {0, 1, 99, 100, 101, 299, 300, 301, 1234, 10_000}) {
                StripeLayout layout = new StripeLayout(100, stripes);
                long total = 0;
                for (int s = 0; s < stripes; s++) {
                    long counted = 0;
                    for (long k = 0; ; k++) {
                        long offset = layout.blockOffset(s, k);
                        if (offset >= length) {
                            break;
                        }
                        assertThat(layout.stripeOf(offset)).isEqualTo(s);
                        counted += Math.min(100, length - offset);
                    }
                    assertThat(layout.stripeLength(s, length))
                            .as("stripe %d of %d, length %d", s, stripes, length)
                            .isEqualTo(counted);
                    total += counted;
                }
                assertThat(total).isEqualTo(length);
            }
        }
    }

    @Test
    void rejectsBadValues() {
        assertThatThrownBy(() -> new StripeLayout(0, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new StripeLayout(1, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new StripeLayout((64 << 20) + 1, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new StripeLayout(10, 2).blockOffset(2, 0))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
