package org.ferry.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.ferry.cli.api.ApiException;
import org.ferry.cli.api.FerryApiClient;
import picocli.CommandLine.Command;

/**
 * {@code ferry logout}: revokes the token {@code ferry login} stored ({@code DELETE
 * /v0.10/access_token/{id}}) and deletes {@code $FERRY_HOME/cli-token}. A token the server no
 * longer knows is deleted all the same.
 */
@Command(
        name = "logout",
        mixinStandardHelpOptions = true,
        versionProvider = FerryVersion.class,
        description = "Revoke and forget the token 'ferry login' stored.",
        footerHeading = "%nExample:%n",
        footer = "  ferry logout")
public final class LogoutCommand extends ApiCommand {

    /** @return 0 once logged out (also when there was nothing to do) */
    @Override
    protected int execute() {
        Path file = root().tokenSource().loginFile();
        if (!Files.isRegularFile(file)) {
            out().println("Not logged in (no " + file + ")");
            out().flush();
            return 0;
        }
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
        if (lines.size() >= 2 && !lines.get(1).isBlank()) {
            FerryApiClient client =
                    new FerryApiClient(root().apiUrl(), lines.get(0).strip(), root().mapper());
            try {
                client.delete(
                        "/access_token/" + FerryApiClient.segment(lines.get(1).strip()));
            } catch (ApiException e) {
                if (e.httpStatus() != 401 && e.httpStatus() != 404) {
                    throw e; // 401/404: the token is gone already
                }
            }
        }
        try {
            Files.delete(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + file, e);
        }
        out().println("Logged out: token revoked and " + file + " deleted");
        out().flush();
        return 0;
    }
}
