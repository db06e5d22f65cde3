package org.ferry.mover.data.security;

import java.nio.ByteBuffer;
import java.security.cert.CertificateEncodingException;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.ferry.gsi.trust.CertificateValidationException;
import org.ferry.gsi.trust.ChainValidator;
import org.ferry.gsi.trust.ValidatedChain;

/**
 * Validates the peer chains of one {@link DataChannelSecurity}'s data connections, remembering for
 * a short while the chains its delegate accepted, so that the p parallel connections of a transfer
 * (and the transfers after it in the same session) do not each repeat the full path validation of
 * the same chain: canl's validation (RFC 5280 and RFC 3820 path checks, signing policies, CRLs) was
 * half of the CPU of setting up PROT S/P data connections (JFR), about 1.5 ms per connection on
 * each side. The TLS handshake still proves on every connection that the peer holds the leaf's
 * key; only the validation of a byte-for-byte identical chain is shared.
 *
 * <p>A chain is remembered for at most {@code maxAge} and never past the earliest {@code notAfter}
 * in it; rejections are never remembered; connections that present the same chain at the same time
 * wait for one validation. Holds at most {@link #MAX_CHAINS} chains (a session's peer presents one).
 * Thread-safe.
 */
final class RecentChainValidator implements ChainValidator {

    /** Chains kept at once; more distinct chains than this start the memory afresh. */
    static final int MAX_CHAINS = 8;

    private final ChainValidator delegate;
    private final Duration maxAge;
    private final Clock clock;
    private final ConcurrentMap<List<ByteBuffer>, Accepted> accepted = new ConcurrentHashMap<>();

    private record Accepted(ValidatedChain chain, Instant until) {}

    /**
     * @param delegate validates chains not remembered
     * @param maxAge   how long an accepted chain is remembered at most
     * @param clock    the time source (tests move it)
     */
    RecentChainValidator(ChainValidator delegate, Duration maxAge, Clock clock) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
        this.maxAge = Objects.requireNonNull(maxAge, "maxAge");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    @Override
    public ValidatedChain validate(List<X509Certificate> chain) throws CertificateValidationException {
        List<ByteBuffer> key = encoded(chain);
        Instant now = clock.instant();
        Accepted known = accepted.get(key);
        if (known != null && now.isBefore(known.until())) {
            return known.chain();
        }
        if (accepted.size() >= MAX_CHAINS) {
            accepted.clear();
        }
        try {
            // compute() locks the entry: connections presenting this chain meanwhile wait for this one
            // validation instead of repeating it
            return accepted.compute(key, (k, old) -> {
                        if (old != null && now.isBefore(old.until())) {
                            return old;
                        }
                        try {
                            return new Accepted(delegate.validate(chain), until(chain, now));
                        } catch (CertificateValidationException e) {
                            throw new Rejected(e);
                        }
                    })
                    .chain();
        } catch (Rejected r) {
            throw r.cause;
        }
    }

    private Instant until(List<X509Certificate> chain, Instant now) {
        Instant until = now.plus(maxAge);
        for (X509Certificate cert : chain) {
            Instant notAfter = cert.getNotAfter().toInstant();
            if (notAfter.isBefore(until)) {
                until = notAfter;
            }
        }
        return until;
    }

    private static List<ByteBuffer> encoded(List<X509Certificate> chain) throws CertificateValidationException {
        List<ByteBuffer> key = new ArrayList<>(chain.size());
        for (X509Certificate cert : chain) {
            try {
                key.add(ByteBuffer.wrap(cert.getEncoded()));
            } catch (CertificateEncodingException e) {
                throw new CertificateValidationException("cannot encode the peer certificate: " + e.getMessage());
            }
        }
        return key;
    }

    /** Carries a rejection out of the map's remapping function, which cannot throw checked exceptions. */
    private static final class Rejected extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final transient CertificateValidationException cause;

        Rejected(CertificateValidationException cause) {
            super(null, null, false, false);
            this.cause = cause;
        }
    }
}
