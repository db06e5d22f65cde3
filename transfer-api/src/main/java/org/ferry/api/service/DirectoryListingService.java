package org.ferry.api.service;

import java.io.IOException;
import java.net.ConnectException;
import java.nio.file.NoSuchFileException;
import java.util.List;
import org.ferry.api.domain.Endpoint;
import org.ferry.api.gridftp.EndpointLogin;
import org.ferry.mover.client.GridFtpClient;
import org.ferry.mover.client.GridFtpReplyException;
import org.ferry.mover.client.GridFtpSession;
import org.ferry.mover.protocol.FileInfo;
import org.springframework.stereotype.Service;

/** Lists endpoint directories over GridFTP (MLSD) for {@code operation/endpoint/{id}/ls}. */
@Service
public class DirectoryListingService {

    private final GridFtpClient client;

    /** @param client the application's GridFTP client */
    public DirectoryListingService(GridFtpClient client) {
        this.client = client;
    }

    /**
     * @param endpoint the endpoint
     * @param directory absolute, normalized directory path
     * @return its entries (no {@code .}/{@code ..})
     * @throws ApiException 404 if the directory does not exist (550), 502 with the server's reply
     *     for any other GridFTP failure
     */
    public List<FileInfo> list(Endpoint endpoint, String directory) {
        EndpointLogin login;
        try {
            login = EndpointLogin.of(endpoint);
        } catch (IllegalArgumentException e) {
            throw ApiException.endpointError("Endpoint URL is invalid: " + e.getMessage());
        }
        try (GridFtpSession session = client.open(login.url())) {
            return session.list(directory);
        } catch (NoSuchFileException e) {
            throw ApiException.notFound("path", "Directory '" + directory + "' not found on " + login.canonicalName());
        } catch (GridFtpReplyException e) {
            if (e.replyCode() == 550) {
                throw ApiException.notFound("path", e.getMessage());
            }
            throw ApiException.endpointError(e.getMessage());
        } catch (ConnectException e) {
            throw ApiException.endpointError("Cannot connect to " + login + ": " + e.getMessage());
        } catch (IOException e) {
            throw ApiException.endpointError("GridFTP failure on " + login + ": " + e.getMessage());
        } catch (UnsupportedOperationException e) {
            throw ApiException.endpointError("GridFTP client not available: " + e.getMessage());
        }
    }
}
