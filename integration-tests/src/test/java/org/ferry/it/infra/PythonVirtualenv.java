package org.ferry.it.infra;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.ferry.testing.Prerequisites;

/**
 * A Python virtualenv in {@code integration-tests/target/NAME} with one pinned package from PyPI,
 * reused while it has that version. Needs {@code python3} with {@code venv} and PyPI: without them
 * a test using it is skipped, except under {@code CI=true} where it fails ({@code .ci/run} installs
 * Debian's python3-venv).
 */
public final class PythonVirtualenv {

    private PythonVirtualenv() {}

    /**
     * @param name the virtualenv's directory name under {@code integration-tests/target}
     * @param module the package's import name, e.g. {@code globus_sdk}
     * @param version attribute expression of the module that gives its version, e.g. {@code __version__}
     * @param requirement what pip installs, e.g. {@code globus-sdk==4.10.0}
     * @param expectedVersion the version the module must report
     * @return the virtualenv's {@code bin/python}
     */
    public static Path with(String name, String module, String version, String requirement, String expectedVersion)
            throws Exception {
        Path venv = Path.of(System.getProperty("ferry.repo.root", ".."), "integration-tests", "target", name)
                .toAbsolutePath()
                .normalize();
        Path python = venv.resolve("bin/python");
        if (Files.isExecutable(python)
                && succeeds(List.of(
                        python.toString(),
                        "-c",
                        "import " + module + ", sys; sys.exit(0 if " + module + "." + version + " == '"
                                + expectedVersion + "' else 1)"))) {
            return python;
        }
        Path log = Files.createTempFile(name, ".log");
        require(
                succeeds(List.of("python3", "-m", "venv", "--clear", venv.toString()), log),
                "python3 with venv (Debian: apt-get install python3-venv)",
                log);
        require(
                succeeds(
                        List.of(
                                python.toString(),
                                "-m",
                                "pip",
                                "install",
                                "--disable-pip-version-check",
                                "--quiet",
                                requirement),
                        log),
                "pip install " + requirement + " from PyPI",
                log);
        return python;
    }

    private static void require(boolean available, String what, Path log) throws IOException {
        Prerequisites.require(available, available ? null : what + " is not available:\n" + Files.readString(log));
    }

    private static boolean succeeds(List<String> command) throws Exception {
        return succeeds(command, Files.createTempFile("venv-check", ".log"));
    }

    private static boolean succeeds(List<String> command, Path log) throws Exception {
        try {
            Process process = run(command, Map.of(), log);
            if (!process.waitFor(10, TimeUnit.MINUTES)) {
                process.destroyForcibly().waitFor();
                return false;
            }
            return process.exitValue() == 0;
        } catch (IOException notInstalled) {
            Files.writeString(log, notInstalled.toString());
            return false;
        }
    }

    /**
     * Starts a command with its output appended to {@code log} and no input.
     *
     * @return the process
     */
    public static Process run(List<String> command, Map<String, String> env, Path log) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        builder.environment().putAll(env);
        builder.environment().put("PYTHONUNBUFFERED", "1");
        return builder.start();
    }
}
