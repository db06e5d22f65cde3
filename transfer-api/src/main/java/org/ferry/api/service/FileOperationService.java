package org.ferry.api.service;

import java.io.IOException;
import java.net.ConnectException;
import java.nio.file.NoSuchFileException;
import java.util.List;
import org.ferry.api.credential.ActivationRequiredException;
import org.ferry.api.credential.EndpointAccessService;
import org.ferry.api.domain.Endpoint;
import org.ferry.api.error.ConflictException;
import org.ferry.api.error.EndpointException;
import org.ferry.api.error.InvalidRequestException;
import org.ferry.api.error.NotFoundException;
import org.ferry.mover.access.CredentialExpiredException;
import org.ferry.mover.access.EndpointAccess;
import org.ferry.mover.access.EndpointSessions;
import org.ferry.mover.client.GridFtpReplyException;
import org.ferry.mover.client.GridFtpSession;
import org.ferry.mover.data.security.ProtectionLevel;
import org.ferry.mover.protocol.FileInfo;
import org.springframework.stereotype.Service;

/**
 * The synchronous file operations on an endpoint ({@code operation/endpoint/{id}/...}): listing
 * (MLSD), stat (MLST), mkdir (MKD), rename (RNFR/RNTO), each over one GridFTP session logged in
 * as the caller: with the endpoint's password, or with the credential the caller activated a
 * {@code gsiftp://} endpoint with (its data channels authenticated, DCAU).
 *
 * <p>Failures: a path the server answers 550 for is a {@link NotFoundException} naming the
 * path's field (mkdir: {@link ConflictException} when the path exists); a {@code gsiftp://}
 * endpoint the caller has not activated (or whose credential expired) is a
 * {@link ConflictException} {@code ClientError.ActivationRequired}; any other GridFTP failure, or
 * an unreachable server, is an {@link EndpointException} carrying the reply.
 */
@Service
public class FileOperationService {

    private final EndpointAccessService accesses;
    private final EndpointSessions sessions;
    private final EndpointService endpoints;

    /**
     * @param accesses how the caller logs in to an endpoint
     * @param sessions opens sessions
     * @param endpoints the clear-text setting
     */
    public FileOperationService(EndpointAccessService accesses, EndpointSessions sessions, EndpointService endpoints) {
        this.accesses = accesses;
        this.sessions = sessions;
        this.endpoints = endpoints;
    }

    /**
     * @param user the caller
     * @param endpoint the endpoint
     * @param directory absolute, normalized directory path
     * @return its entries (no {@code .}/{@code ..})
     */
    public List<FileInfo> list(String user, Endpoint endpoint, String directory) {
        return run(
                user,
                endpoint,
                "path",
                directory,
                session -> session.list(directory).stream()
                        .filter(f -> !f.name().equals(".") && !f.name().equals(".."))
                        .toList());
    }

    /**
     * @param user the caller
     * @param endpoint the endpoint
     * @param path absolute, normalized path
     * @return the entry, named by the path's last component
     */
    public FileInfo stat(String user, Endpoint endpoint, String path) {
        FileInfo info = run(user, endpoint, "path", path, session -> session.stat(path));
        return new FileInfo(ApiPaths.name(path), info.type(), info.sizeBytes(), info.modified(), info.unixMode());
    }

    /**
     * Creates a directory (its parent must exist).
     *
     * @param user the caller
     * @param endpoint the endpoint
     * @param path absolute, normalized path
     * @throws ConflictException ({@code ExternalError.MkdirFailed.Exists}) if the path exists
     */
    public void mkdir(String user, Endpoint endpoint, String path) {
        run(user, endpoint, "path", path, session -> {
            try {
                session.makeDirectory(path);
            } catch (GridFtpReplyException e) {
                if (exists(session, path)) {
                    throw new ConflictException(
                            "ExternalError.MkdirFailed.Exists", "path", "Path already exists: " + path);
                }
                throw e;
            }
            return null;
        });
    }

    /**
     * Renames a file or directory.
     *
     * @param user the caller
     * @param endpoint the endpoint
     * @param oldPath absolute, normalized existing path
     * @param newPath absolute, normalized new path
     * @throws NotFoundException naming {@code old_path} if it does not exist
     * @throws ConflictException naming {@code new_path} if it exists
     */
    public void rename(String user, Endpoint endpoint, String oldPath, String newPath) {
        if (oldPath.equals("/") || newPath.equals("/")) {
            throw new InvalidRequestException(
                    oldPath.equals("/") ? "old_path" : "new_path", "the root cannot be renamed");
        }
        run(user, endpoint, "old_path", oldPath, session -> {
            if (!exists(session, oldPath)) {
                throw new NotFoundException("old_path", "Path not found: " + oldPath);
            }
            if (exists(session, newPath)) {
                throw new ConflictException("new_path", "Path already exists: " + newPath);
            }
            session.rename(oldPath, newPath);
            return null;
        });
    }

    /**
     * @param user the caller
     * @param endpoint the endpoint
     * @param feature a FEAT keyword (RFC 2389), e.g. {@code SETDISKSTACK gridftp_multicast}
     * @return whether the endpoint's server lists it (one session, logged in as the caller)
     */
    public boolean offers(String user, Endpoint endpoint, String feature) {
        return run(user, endpoint, "endpoint_id", "/", session -> session.offers(feature));
    }

    /**
     * @param user the caller
     * @param endpoint the endpoint
     * @param algorithm a CKSM algorithm, e.g. {@code SHA256-TREE}
     * @return whether the endpoint's server lists it in its FEAT's CKSM line (one session)
     */
    public boolean offersChecksum(String user, Endpoint endpoint, String algorithm) {
        return run(user, endpoint, "endpoint_id", "/", session -> session.offersChecksum(algorithm));
    }

    private static boolean exists(GridFtpSession session, String path) throws IOException {
        try {
            session.stat(path);
            return true;
        } catch (NoSuchFileException e) {
            return false;
        }
    }

    /** One operation over a session. */
    private interface Operation<T> {
        T run(GridFtpSession session) throws IOException;
    }

    private <T> T run(String user, Endpoint endpoint, String field, String path, Operation<T> operation) {
        endpoints.checkAllowed(endpoint, "endpoint_id");
        EndpointAccess login;
        try {
            login = accesses.access(user, endpoint);
        } catch (ActivationRequiredException e) {
            throw new ConflictException(ActivationRequiredException.CODE, "endpoint_id", e.getMessage());
        } catch (IllegalArgumentException e) {
            throw new EndpointException("Endpoint URL is invalid: " + e.getMessage());
        }
        try (GridFtpSession session = sessions.open(login, ProtectionLevel.CLEAR)) {
            return operation.run(session);
        } catch (NoSuchFileException e) {
            throw new NotFoundException(field, "Path not found on " + login.endpoint() + ": " + path);
        } catch (GridFtpReplyException e) {
            if (e.replyCode() == 550) {
                throw new NotFoundException(field, login.endpoint() + ": " + e.getMessage());
            }
            throw new EndpointException(login.endpoint() + ": " + e.getMessage());
        } catch (CredentialExpiredException e) {
            throw new ConflictException(ActivationRequiredException.CODE, "endpoint_id", e.getMessage());
        } catch (ConnectException e) {
            throw new EndpointException("Cannot connect to " + login + ": " + e.getMessage());
        } catch (IOException e) {
            throw new EndpointException("GridFTP failure on " + login + ": " + e.getMessage());
        }
    }
}
