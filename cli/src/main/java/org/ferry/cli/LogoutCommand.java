package org.ferry.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.ferry.cli.api.ApiException;
import org.ferry.cli.api.FerryApiClient;
import org.ferry.cli.output.OutputFormat;
import picocli.CommandLine.Command;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code ferry logout}: revokes the token {@code ferry login} stored ({@code DELETE
 * /v0.10/access_token/{id}}) and deletes {@code $FERRY_HOME/cli-token}. A token the server no
 * longer knows (401, 404) is deleted all the same.
 *
 * <p>Output: text a sentence; unix the outcome's code alone ({@code LoggedOut} or
 * {@code NotLoggedIn}); json {@code {"code", "token_file", "token_id", "token_revoked"}}
 * ({@code token_revoked} false when the server no longer knew the token or the file named no
 * token id).
 */
@Command(
        name = "logout",
        mixinStandardHelpOptions = true,
        versionProvider = FerryVersion.class,
        description = "Revoke and forget the token 'ferry login' stored.",
        footerHeading = "%nExamples:%n",
        footer = {"  ferry logout", "  ferry -F json logout"})
public final class LogoutCommand extends ApiCommand {

    /** @return 0 once logged out (also when there was nothing to do) */
    @Override
    protected int execute() {
        Path file = root().tokenSource().loginFile();
        if (!Files.isRegularFile(file)) {
            print("NotLoggedIn", file, null, false, "Not logged in (no " + file + ")");
            return 0;
        }
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
        String tokenId =
                lines.size() >= 2 && !lines.get(1).isBlank() ? lines.get(1).strip() : null;
        boolean revoked = false;
        if (tokenId != null) {
            FerryApiClient client =
                    new FerryApiClient(root().apiUrl(), lines.get(0).strip(), root().mapper());
            try {
                client.delete("/access_token/" + FerryApiClient.segment(tokenId));
                revoked = true;
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
        print(
                "LoggedOut",
                file,
                tokenId,
                revoked,
                tokenId == null
                        ? "Logged out: " + file + " deleted (it named no token id to revoke)"
                        : revoked
                                ? "Logged out: token revoked and " + file + " deleted"
                                : "Logged out: the server no longer knew the token; " + file + " deleted");
        return 0;
    }

    private void print(String code, Path file, String tokenId, boolean revoked, String sentence) {
        if (format() == OutputFormat.JSON) {
            ObjectNode result = root().mapper().createObjectNode();
            result.put("code", code);
            result.put("token_file", file.toString());
            result.put("token_id", tokenId);
            result.put("token_revoked", revoked);
            printJson(result);
            return;
        }
        out().println(format() == OutputFormat.UNIX ? code : sentence);
        out().flush();
    }
}
