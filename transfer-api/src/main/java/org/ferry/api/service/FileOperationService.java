package org.ferry.api.service;

import java.io.IOException;
import java.net.ConnectException;
import java.nio.file.NoSuchFileException;
import java.util.List;
import org.ferry.api.domain.Endpoint;
import org.ferry.api.error.ConflictException;
import org.ferry.api.error.EndpointException;
import org.ferry.api.error.InvalidRequestException;
import org.ferry.api.error.NotFoundException;
import org.ferry.api.gridftp.EndpointLogin;
import org.ferry.mover.client.GridFtpClient;
import org.ferry.mover.client.GridFtpReplyException;
import org.ferry.mover.client.GridFtpSession;
import org.ferry.mover.protocol.FileInfo;
import org.springframework.stereotype.Service;

/**
 * The synchronous file operations on an endpoint ({@code operation/endpoint/{id}/...}): listing
 * (MLSD), stat (MLST), mkdir (MKD), rename (RNFR/RNTO), each over one GridFTP session.
 *
 * <p>Failures: a path the server answers 550 for is a {@link NotFoundException} naming the
 * path's field (mkdir: {@link ConflictException} when the path exists); any other GridFTP
 * failure, or an unreachable server, is an {@link EndpointException} carrying the reply.
 */
@Service
public class FileOperationService {

    private final GridFtpClient client;

    /** @param client the application's GridFTP client */
    public FileOperationService(GridFtpClient client) {
        this.client = client;
    }

    /**
     * @param endpoint the endpoint
     * @param directory absolute, normalized directory path
     * @return its entries (no {@code .}/{@code ..})
     */
    public List<FileInfo> list(Endpoint endpoint, String directory) {
        return run(
                endpoint,
                "path",
                directory,
                session -> session.list(directory).stream()
                        .filter(f -> !f.name().equals(".") && !f.name().equals(".."))
                        .toList());
    }

    /**
     * @param endpoint the endpoint
     * @param path absolute, normalized path
     * @return the entry, named by the path's last component
     */
    public FileInfo stat(Endpoint endpoint, String path) {
        FileInfo info = run(endpoint, "path", path, session -> session.stat(path));
        return new FileInfo(ApiPaths.name(path), info.type(), info.sizeBytes(), info.modified(), info.unixMode());
    }

    /**
     * Creates a directory (its parent must exist).
     *
     * @param endpoint the endpoint
     * @param path absolute, normalized path
     * @throws ConflictException ({@code ExternalError.MkdirFailed.Exists}) if the path exists
     */
    public void mkdir(Endpoint endpoint, String path) {
        run(endpoint, "path", path, session -> {
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
     * @param endpoint the endpoint
     * @param oldPath absolute, normalized existing path
     * @param newPath absolute, normalized new path
     * @throws NotFoundException naming {@code old_path} if it does not exist
     * @throws ConflictException naming {@code new_path} if it exists
     */
    public void rename(Endpoint endpoint, String oldPath, String newPath) {
        if (oldPath.equals("/") || newPath.equals("/")) {
            throw new InvalidRequestException(
                    oldPath.equals("/") ? "old_path" : "new_path", "the root cannot be renamed");
        }
        run(endpoint, "old_path", oldPath, session -> {
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

    private <T> T run(Endpoint endpoint, String field, String path, Operation<T> operation) {
        EndpointLogin login;
        try {
            login = EndpointLogin.of(endpoint);
        } catch (IllegalArgumentException e) {
            throw new EndpointException("Endpoint URL is invalid: " + e.getMessage());
        }
        try (GridFtpSession session = client.open(login.url())) {
            return operation.run(session);
        } catch (NoSuchFileException e) {
            throw new NotFoundException(field, "Path not found on " + login.canonicalName() + ": " + path);
        } catch (GridFtpReplyException e) {
            if (e.replyCode() == 550) {
                throw new NotFoundException(field, login.canonicalName() + ": " + e.getMessage());
            }
            throw new EndpointException(login.canonicalName() + ": " + e.getMessage());
        } catch (ConnectException e) {
            throw new EndpointException("Cannot connect to " + login + ": " + e.getMessage());
        } catch (IOException e) {
            throw new EndpointException("GridFTP failure on " + login + ": " + e.getMessage());
        }
    }
}
