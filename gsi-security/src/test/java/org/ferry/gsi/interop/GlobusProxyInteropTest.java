package org.ferry.gsi.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.ferry.gsi.ExternalTools;
import org.ferry.gsi.ExternalTools.Result;
import org.ferry.gsi.TestPki;
import org.ferry.gsi.credential.GsiCredential;
import org.ferry.gsi.credential.PemFiles;
import org.ferry.gsi.proxy.ProxyCertificates;
import org.ferry.gsi.proxy.ProxyFormat;
import org.ferry.gsi.proxy.ProxyPolicyKind;
import org.ferry.gsi.proxy.ProxyRequest;
import org.ferry.gsi.proxy.factory.BcProxyFactory;
import org.ferry.gsi.trust.CanlChainValidator;
import org.ferry.gsi.trust.CertificateValidationException;
import org.ferry.gsi.trust.ValidatedChain;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Proxies made by Debian's grid-proxy-init validate with Ferry; proxies made by Ferry are accepted
 * by grid-proxy-info and {@code openssl verify -allow_proxy_certs}. The CA is Ferry's OnlineCa,
 * so Globus also reads Ferry's trust directory and signing policy here.
 */
class GlobusProxyInteropTest {
    @TempDir
    static Path tmp;

    static TestPki pki;
    static Path userCert;
    static Path userKey;
    static CanlChainValidator validator;

    @BeforeAll
    static void setUp() throws Exception {
        pki = TestPki.create(tmp, "Interop");
        GsiCredential user = pki.user("Globus User");
        userCert = tmp.resolve("usercert.pem");
        userKey = tmp.resolve("userkey.pem");
        PemFiles.writeCertificates(user.chain(), userCert);
        PemFiles.writePrivateKey(user.privateKey(), userKey);
        validator = new CanlChainValidator(pki.trustDir());
    }

    @AfterAll
    static void tearDown() {
        if (validator != null) {
            validator.close();
        }
    }

    static Map<String, String> env(Path proxy) {
        Map<String, String> env = new HashMap<>();
        env.put("X509_CERT_DIR", pki.trustDir().toString());
        env.put("X509_USER_CERT", userCert.toString());
        env.put("X509_USER_KEY", userKey.toString());
        env.put("X509_USER_PROXY", proxy.toString());
        return env;
    }

    @ParameterizedTest(name = "grid-proxy-init {0}")
    @CsvSource({
        "-rfc,      RFC3820, IMPERSONATION",
        "-limited,  RFC3820, LIMITED",
        "-old,      LEGACY,  IMPERSONATION",
        "-old -limited, LEGACY, LIMITED",
        "-draft,    GT3_DRAFT, IMPERSONATION",
    })
    void gridProxyInitProxiesValidateWithFerry(String options, ProxyFormat format, ProxyPolicyKind policy)
            throws Exception {
        ExternalTools.require("grid-proxy-init", "globus-proxy-utils");
        Path proxyFile = tmp.resolve("gpi-" + options.replace(' ', '_').replace("-", ""));
        List<String> cmd = new java.util.ArrayList<>(List.of("grid-proxy-init", "-q", "-bits", "2048"));
        cmd.addAll(List.of(options.split(" ")));
        Result r = ExternalTools.run(env(proxyFile), null, cmd);
        if (r.output().contains("Unrecognized option") || r.output().contains("Invalid option")) {
            if ("true".equals(System.getenv("CI"))) {
                throw new AssertionError("CI=true: Debian's grid-proxy-init lacks " + options + ": " + r.output());
            }
            org.junit.jupiter.api.Assumptions.abort("this grid-proxy-init lacks " + options + ": " + r.output());
        }
        assertThat(r.exitCode()).as(r.output()).isZero();

        GsiCredential proxy = PemFiles.readCredential(proxyFile);
        assertThat(ProxyCertificates.info(proxy.certificate())).get().satisfies(i -> {
            assertThat(i.format()).isEqualTo(format);
            assertThat(i.policy()).isEqualTo(policy);
        });
        ValidatedChain v = validator.validate(proxy.chain());
        assertThat(v.identity()).isEqualTo("/O=Grid/OU=Interop/CN=Globus User");
        assertThat(v.limited()).isEqualTo(policy == ProxyPolicyKind.LIMITED);
        if (v.limited()) {
            assertThatThrownBy(v::requireFullProxy).isInstanceOf(CertificateValidationException.class);
        }
    }

    @Test
    void ferryProxiesAreAcceptedByGridProxyInfoAndOpenssl() throws Exception {
        ExternalTools.require("grid-proxy-info", "globus-proxy-utils");
        ExternalTools.require("openssl", "openssl");
        GsiCredential user = PemFiles.readCredential(userCert, userKey, null);
        for (ProxyRequest request : List.of(ProxyRequest.impersonation(), ProxyRequest.limited())) {
            Path file = tmp.resolve("ferry-proxy-" + request.policy());
            new BcProxyFactory().createProxyFile(user, request, file);
            Map<String, String> env = env(file);

            Result exists = ExternalTools.run(env, "grid-proxy-info", "-exists", "-valid", "11:00");
            assertThat(exists.exitCode()).as(exists.output()).isZero();
            Result info = ExternalTools.run(env, "grid-proxy-info");
            assertThat(info.exitCode()).as(info.output()).isZero();
            assertThat(info.output()).contains("identity : /O=Grid/OU=Interop/CN=Globus User");
            assertThat(info.output())
                    .containsPattern(
                            request.policy() == ProxyPolicyKind.LIMITED
                                    ? "type\\s*: RFC 3820 compliant limited proxy"
                                    : "type\\s*: RFC 3820 compliant impersonation proxy");

            // openssl verify: the proxy is the target, the EEC an untrusted intermediate.
            Result verify = ExternalTools.run(
                    Map.of(),
                    "openssl",
                    "verify",
                    "-allow_proxy_certs",
                    "-CApath",
                    pki.trustDir().toString(),
                    "-untrusted",
                    userCert.toString(),
                    file.toString());
            assertThat(verify.exitCode()).as(verify.output()).isZero();
            assertThat(verify.output()).contains(": OK");
        }
    }

    @Test
    void ferryProxyOfAGridProxyInitProxyIsAccepted() throws Exception {
        ExternalTools.require("grid-proxy-init", "globus-proxy-utils");
        Path globusProxy = tmp.resolve("gpi-base");
        Result r = ExternalTools.run(env(globusProxy), "grid-proxy-init", "-q", "-bits", "2048");
        assertThat(r.exitCode()).as(r.output()).isZero();
        Path ferryProxy = tmp.resolve("ferry-on-gpi");
        new BcProxyFactory().createProxyFile(PemFiles.readCredential(globusProxy), ProxyRequest.limited(), ferryProxy);
        Result info = ExternalTools.run(env(ferryProxy), "grid-proxy-info", "-exists");
        assertThat(info.exitCode()).as(info.output()).isZero();
        assertThat(validator
                        .validate(PemFiles.readCredential(ferryProxy).chain())
                        .limited())
                .isTrue();
    }

    @Test
    void expiredFerryProxyIsRefusedByGridProxyInfoToo() throws Exception {
        ExternalTools.require("grid-proxy-info", "globus-proxy-utils");
        GsiCredential user = PemFiles.readCredential(userCert, userKey, null);
        var past = new BcProxyFactory(
                new org.bouncycastle.jce.provider.BouncyCastleProvider(),
                java.time.Clock.offset(java.time.Clock.systemUTC(), java.time.Duration.ofHours(-13)),
                new java.security.SecureRandom());
        Path file = tmp.resolve("expired");
        past.createProxyFile(user, ProxyRequest.impersonation(), file);
        assertThat(ExternalTools.run(env(file), "grid-proxy-info", "-exists").exitCode())
                .isNotZero();
        assertThatThrownBy(
                        () -> validator.validate(PemFiles.readCredential(file).chain()))
                .hasMessageContaining("Certificate has expired on:");
    }
}
