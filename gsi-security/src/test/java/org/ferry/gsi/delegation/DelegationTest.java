package org.ferry.gsi.delegation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.security.GeneralSecurityException;
import org.bouncycastle.pkcs.PKCS10CertificationRequest;
import org.ferry.gsi.TestPki;
import org.ferry.gsi.credential.GsiCredential;
import org.ferry.gsi.proxy.ProxyRequest;
import org.ferry.gsi.proxy.factory.BcProxyFactory;
import org.ferry.gsi.trust.CanlChainValidator;
import org.ferry.gsi.trust.ValidatedChain;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The delegation exchange of reference 4.2 steps 3-5, both sides in one JVM. */
class DelegationTest {
    @TempDir
    Path tmp;

    @Test
    void csrSignCompleteGivesAValidLimitedCredential() throws Exception {
        TestPki pki = TestPki.create(tmp, "Deleg");
        GsiCredential user = new BcProxyFactory().createProxy(pki.user("Dana"), ProxyRequest.impersonation());

        DelegationRequest acceptor = DelegationRequest.create();
        PKCS10CertificationRequest csr = new PKCS10CertificationRequest(acceptor.csrDer());
        assertThat(csr.getSignatureAlgorithm().getAlgorithm().getId())
                .as("sha256WithRSAEncryption")
                .isEqualTo("1.2.840.113549.1.1.11");

        byte[] cert = new DelegationSigner(new BcProxyFactory()).sign(user, acceptor.csrDer(), ProxyRequest.limited());
        GsiCredential delegated = acceptor.complete(cert, user.chain());
        assertThat(delegated.chain()).hasSize(3);
        try (CanlChainValidator v = new CanlChainValidator(pki.trustDir())) {
            ValidatedChain chain = v.validate(delegated.chain());
            assertThat(chain.identity()).isEqualTo("/O=Grid/OU=Deleg/CN=Dana");
            assertThat(chain.limited()).isTrue();
        }
    }

    @Test
    void certificateForAnotherKeyIsRefused() throws Exception {
        TestPki pki = TestPki.create(tmp, "Deleg2");
        GsiCredential user = pki.user("Eli");
        DelegationRequest mine = DelegationRequest.create();
        DelegationRequest other = DelegationRequest.create();
        byte[] cert =
                new DelegationSigner(new BcProxyFactory()).sign(user, other.csrDer(), ProxyRequest.impersonation());
        assertThatThrownBy(() -> mine.complete(cert, user.chain()))
                .isInstanceOf(GeneralSecurityException.class)
                .hasMessage("delegated certificate is not for the key we requested");
        assertThatThrownBy(() -> new DelegationSigner(new BcProxyFactory())
                        .sign(user, new byte[] {1, 2, 3}, ProxyRequest.limited()))
                .hasMessageStartingWith("malformed delegation request");
    }
}
