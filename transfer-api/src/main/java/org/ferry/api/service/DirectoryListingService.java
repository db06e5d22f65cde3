package org.ferry.api.service;

import java.io.IOException;
import java.net.ConnectException;
import java.nio.file.NoSuchFileException;
import java.util.List;
import org.ferry.api.credential.ActivationRequiredException;
import org.ferry.api.credential.EndpointAccessService;
import org.ferry.api.domain.Endpoint;
import org.ferry.mover.access.CredentialExpiredException;
import org.ferry.mover.access.EndpointAccess;
import org.ferry.mover.access.EndpointSessions;
import org.ferry.mover.client.GridFtpReplyException;
import org.ferry.mover.client.GridFtpSession;
import org.ferry.mover.data.security.ProtectionLevel;
import org.ferry.mover.protocol.FileInfo;
import org.springframework.stereotype.Service;

/**
 * Lists endpoint directories over GridFTP (MLSD) for {@code operation/endpoint/{id}/ls}, logged in
 * as the caller: with the endpoint's password, or with the credential the caller activated a
 * {@code gsiftp://} endpoint with (its data channel authenticated, DCAU).
 */
@Service
public class DirectoryListingService {

    private final EndpointAccessService accesses;
    private final EndpointSessions sessions;
    private final EndpointService endpoints;

    /**
     * @param accesses how the caller logs in to an endpoint
     * @param sessions opens sessions
     * @param endpoints the clear-text setting
     */
    public DirectoryListingService(
            EndpointAccessService accesses, EndpointSessions sessions, EndpointService endpoints) {
        this.accesses = accesses;
        this.sessions = sessions;
        this.endpoints = endpoints;
    }

    /**
     * @param caller the user
     * @param endpoint the endpoint
     * @param directory absolute, normalized directory path
     * @return its entries (no {@code .}/{@code ..})
     * @throws ApiException 404 if the directory does not exist (550), 409
     *     {@code ClientError.ActivationRequired} if the caller has not activated a {@code gsiftp://}
     *     endpoint (or the credential expired), 502 with the server's reply for any other failure
     */
    public List<FileInfo> list(String caller, Endpoint endpoint, String directory) {
        endpoints.checkAllowed(endpoint, "endpoint_id");
        EndpointAccess login;
        try {
            login = accesses.access(caller, endpoint);
        } catch (ActivationRequiredException e) {
            throw ApiException.activationRequired("endpoint_id", e.getMessage());
        } catch (IllegalArgumentException e) {
            throw ApiException.endpointError("Endpoint URL is invalid: " + e.getMessage());
        }
        try (GridFtpSession session = sessions.open(login, ProtectionLevel.CLEAR)) {
            return session.list(directory);
        } catch (NoSuchFileException e) {
            throw ApiException.notFound("path", "Directory '" + directory + "' not found on " + login.endpoint());
        } catch (GridFtpReplyException e) {
            if (e.replyCode() == 550) {
                throw ApiException.notFound("path", e.getMessage());
            }
            throw ApiException.endpointError(e.getMessage());
        } catch (CredentialExpiredException e) {
            throw ApiException.activationRequired("endpoint_id", e.getMessage());
        } catch (ConnectException e) {
            throw ApiException.endpointError("Cannot connect to " + login + ": " + e.getMessage());
        } catch (IOException e) {
            throw ApiException.endpointError("GridFTP failure on " + login + ": " + e.getMessage());
        } catch (UnsupportedOperationException e) {
            throw ApiException.endpointError("GridFTP client not available: " + e.getMessage());
        }
    }
}
