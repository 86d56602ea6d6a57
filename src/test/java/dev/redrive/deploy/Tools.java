package dev.redrive.deploy;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The external tools the deploy tests drive (promtool, prometheus, kubectl): where they are, and
 * running one to completion with a bound. Tests skip, saying which package to install, when a
 * tool is missing; test.sh and .ci/run install them.
 */
final class Tools {

    /** The repository root: the tests run with Maven's working directory, the project. */
    static final Path ROOT = Path.of("").toAbsolutePath();

    private Tools() {
    }

    record Result(int exit, String output) {
        boolean ok() {
            return exit == 0;
        }
    }

    /** An executable on PATH, if any. */
    static Optional<Path> find(String name) {
        String path = Optional.ofNullable(System.getenv("PATH")).orElse("/usr/local/bin:/usr/bin:/bin");
        for (String dir : path.split(File.pathSeparator)) {
            Path candidate = Path.of(dir, name);
            if (Files.isExecutable(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    static String missing(String tool, String debianPackage) {
        return tool + " is not installed (apt-get install -y " + debianPackage + "; test.sh does it): skipped";
    }

    /** Runs a command in {@code dir}, waiting at most {@code seconds}; stdout and stderr together. */
    static Result run(Path dir, long seconds, List<String> command) {
        return run(dir, seconds, command, true);
    }

    /**
     * Runs a command; with {@code mergeStderr} false the result holds stdout alone (for output
     * that is parsed, where a warning on stderr must not end up in the document) and stderr is
     * added only when the command fails.
     */
    static Result run(Path dir, long seconds, List<String> command, boolean mergeStderr) {
        try {
            Path out = Files.createTempFile("redrive-tool-", ".log");
            Path err = Files.createTempFile("redrive-tool-", ".err");
            ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile()).redirectOutput(out.toFile());
            if (mergeStderr) {
                pb.redirectErrorStream(true);
            } else {
                pb.redirectError(err.toFile());
            }
            Process p = pb.start();
            if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor();
                throw new AssertionError(String.join(" ", command) + " did not finish within " + seconds + " s");
            }
            String output = Files.readString(out, StandardCharsets.UTF_8);
            if (p.exitValue() != 0 && !mergeStderr) {
                output += Files.readString(err, StandardCharsets.UTF_8);
            }
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
            return new Result(p.exitValue(), output);
        } catch (IOException e) {
            throw new IllegalStateException("could not run " + command, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Deletes a temporary directory tree, best effort. */
    static void deleteTree(Path dir) {
        if (dir == null || !Files.exists(dir)) {
            return;
        }
        try (var paths = Files.walk(dir)) {
            paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // a leftover temp dir is harmless
        }
    }
}
