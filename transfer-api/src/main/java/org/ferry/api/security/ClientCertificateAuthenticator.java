package org.ferry.api.security;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.security.cert.X509Certificate;
import java.util.List;
import org.ferry.api.identity.AccountService;
import org.ferry.gsi.gridmap.AuthorizationException;
import org.ferry.gsi.gridmap.GridMap;
import org.ferry.gsi.gridmap.GridMapAuthorizer;
import org.ferry.gsi.trust.CanlChainValidator;
import org.ferry.gsi.trust.CertificateValidationException;
import org.ferry.gsi.trust.ValidatedChain;
import org.springframework.security.authentication.BadCredentialsException;

/**
 * Authenticates the X.509 chain a client presented over mutual TLS: the chain (RFC 3820 proxy
 * certificates included) is path-validated with gsi-security against the CA directory (signing
 * policies, CRLs where present), its GSI identity (the end-entity subject) is looked up in the
 * grid-mapfile, and the first account it maps to must exist and be enabled.
 *
 * <p>The TLS handshake proved the client holds the leaf's key; the TLS layer itself accepts
 * any chain ({@code optional_no_ca}), because the JDK's PKIX checks refuse proxy certificates.
 */
public final class ClientCertificateAuthenticator implements AutoCloseable {

    private final CanlChainValidator validator;
    private final Path gridmapFile;
    private final AccountService accounts;
    private GridMap gridmap;
    private FileTime gridmapTime;

    /**
     * @param caDirectory the OpenSSL hashed CA directory
     * @param gridmapFile the grid-mapfile
     * @param accounts the accounts
     * @throws UncheckedIOException if the grid-mapfile cannot be read
     */
    public ClientCertificateAuthenticator(Path caDirectory, Path gridmapFile, AccountService accounts) {
        this.validator = new CanlChainValidator(caDirectory);
        this.gridmapFile = gridmapFile;
        this.accounts = accounts;
        currentGridmap();
    }

    /**
     * @param chain the client's chain, leaf first
     * @return the authentication
     * @throws BadCredentialsException naming the reason: invalid chain, unmapped DN, no such
     *     account
     */
    public FerryAuthentication authenticate(List<X509Certificate> chain) {
        ValidatedChain validated;
        try {
            validated = validator.validate(chain);
        } catch (CertificateValidationException e) {
            throw new BadCredentialsException(e.getMessage(), e);
        }
        String account;
        try {
            account = new GridMapAuthorizer(currentGridmap()).authorize(validated.identity(), null);
        } catch (AuthorizationException e) {
            throw new BadCredentialsException(e.getMessage(), e);
        }
        return accounts.enabled(account)
                .map(caller -> new FerryAuthentication(caller, AuthenticationMethod.CERTIFICATE, validated.identity()))
                .orElseThrow(() -> new BadCredentialsException("The grid-mapfile maps " + validated.identity() + " to '"
                        + account + "', which is no enabled Ferry account"));
    }

    /** The grid-mapfile, read again when its modification time changed. */
    private synchronized GridMap currentGridmap() {
        try {
            FileTime time = Files.getLastModifiedTime(gridmapFile);
            if (gridmap == null || !time.equals(gridmapTime)) {
                gridmap = GridMap.load(gridmapFile);
                gridmapTime = time;
            }
            return gridmap;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the grid-mapfile " + gridmapFile, e);
        }
    }

    @Override
    public void close() {
        validator.close();
    }
}
