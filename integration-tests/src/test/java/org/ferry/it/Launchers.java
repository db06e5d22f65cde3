package org.ferry.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Finds the packaged jars behind {@code bin/ferry}, {@code bin/ferry-gridftp} and
 * {@code bin/ferry-server}, and builds {@code java -jar} command lines for them. The reactor
 * packages every module before this one, so the jars exist when the tests run under
 * {@code ./mvnw verify}.
 */
final class Launchers {

    /** The JIT settings bin/ferry-server and bin/ferry-mover run with (C1 only, early). */
    static final List<String> JIT = List.of("-XX:TieredStopAtLevel=1", "-XX:CompileThresholdScaling=0.25");

    private final Path repoRoot;

    Launchers(Path repoRoot) {
        this.repoRoot = repoRoot;
    }

    /** @return launchers for the repository this module is in (system property {@code ferry.repo.root}) */
    static Launchers fromBuild() {
        String root = System.getProperty("ferry.repo.root", "..");
        return new Launchers(Path.of(root).toAbsolutePath().normalize());
    }

    /** @return the repository root */
    Path repoRoot() {
        return repoRoot;
    }

    /** @return {@code java -jar <ferry-gridftp jar>} */
    List<String> ferryGridFtp() throws IOException {
        return javaJar(jar("mover-netty", "-all.jar"));
    }

    /** @return {@code bin/ferry-gridftp}, the launcher a site runs (it finds the same jar) */
    List<String> ferryGridFtpLauncher() {
        return List.of(repoRoot.resolve("bin").resolve("ferry-gridftp").toString());
    }

    /** @return {@code java -jar <ferry-server jar>} with bin/ferry-server's JIT settings */
    List<String> ferryServer() throws IOException {
        List<String> command = javaJar(jar("webapp", "-exec.jar"));
        command.addAll(1, JIT);
        return command;
    }

    /** @return {@code java -cp <ferry-gridftp jar> org.ferry.mover.app.FerryMoverMain}: what bin/ferry-mover runs */
    List<String> ferryMover() throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xshare:auto");
        command.addAll(JIT);
        command.add("-cp");
        command.add(jar("mover-netty", "-all.jar").toString());
        command.add("org.ferry.mover.app.FerryMoverMain");
        return command;
    }

    /** @return {@code java -jar <ferry CLI jar>} */
    List<String> ferryCli() throws IOException {
        return javaJar(jar("cli", "-all.jar"));
    }

    private static List<String> javaJar(Path jar) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xshare:auto");
        command.add("-jar");
        command.add(jar.toString());
        return command;
    }

    private Path jar(String module, String suffix) throws IOException {
        Path target = repoRoot.resolve(module).resolve("target");
        try (Stream<Path> files = Files.list(target)) {
            return files.filter(p -> p.getFileName().toString().endsWith(suffix))
                    .findFirst()
                    .orElseThrow(() -> new IllegalStateException(
                            "no *" + suffix + " in " + target + ": run ./mvnw -B -q package -DskipTests first"));
        }
    }
}
