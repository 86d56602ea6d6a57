package dev.redrive.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What can be checked of the Dockerfiles without a container engine (there is none here, so
 * neither image is built by the suite; docker/README.md says so): multi-stage, non-root 1001,
 * both ports, and a build context that holds what the build copies.
 */
class DockerfilesTest {

    @ParameterizedTest
    @ValueSource(strings = { "docker/Dockerfile.jvm", "docker/Dockerfile.native" })
    void buildsInStagesAndRunsAsNonRootWithBothPorts(String file) throws IOException {
        List<String> lines = Files.readAllLines(Tools.ROOT.resolve(file)).stream().map(String::strip)
                .filter(l -> !l.startsWith("#") && !l.isEmpty()).toList();
        long stages = lines.stream().filter(l -> l.startsWith("FROM ")).count();
        assertTrue(stages >= 2, file + ": a builder stage and a runtime stage");
        int lastFrom = lines.size() - 1;
        while (!lines.get(lastFrom).startsWith("FROM ")) {
            lastFrom--;
        }
        List<String> runtime = lines.subList(lastFrom, lines.size());
        assertTrue(runtime.contains("USER 1001"), file + ": the runtime stage runs as 1001");
        assertTrue(runtime.contains("EXPOSE 8080 9000"), file + ": exposes the API and management ports");
        assertTrue(runtime.stream().anyMatch(l -> l.startsWith("ENTRYPOINT [")), file + ": exec-form entrypoint, so SIGTERM reaches Java");
        String text = String.join("\n", lines);
        assertTrue(text.contains("ARG RUNTIME_IMAGE=registry.access.redhat.com/ubi9/"), file + ": minimal UBI runtime");
        if (file.endsWith("native")) {
            assertTrue(text.contains("mandrel-builder-image"), file + ": Mandrel builder");
            assertFalse(text.contains("quarkus.native.resources.includes"),
                    file + ": native resources are named in application.properties, for every native build");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = { "pom.xml", "src/main/resources/lua/dead-letter.lua", "src/main/java/dev/redrive/worker/Workers.java" })
    void theBuildContextKeepsWhatTheBuildCopies(String path) throws IOException {
        List<String> rules = Files.readAllLines(Tools.ROOT.resolve(".dockerignore")).stream().map(String::strip)
                .filter(l -> !l.startsWith("#") && !l.isEmpty()).toList();
        assertEquals("*", rules.get(0), "the context starts empty");
        assertTrue(rules.stream().anyMatch(r -> r.startsWith("!") && (path.equals(r.substring(1)) || path.startsWith(r.substring(1)))),
                path + " is let into the build context by " + rules);
        assertTrue(Files.exists(Tools.ROOT.resolve(path)), path);
    }

    /** A script or library the native image lacks fails only in production, at its first use. */
    @Test
    void everyLuaFileIsIncludedInANativeBuild() throws IOException {
        Properties properties = new Properties();
        try (InputStream in = Files.newInputStream(Tools.ROOT.resolve("src/main/resources/application.properties"))) {
            properties.load(in);
        }
        String includes = properties.getProperty("quarkus.native.resources.includes", "");
        List<PathMatcher> matchers = Arrays.stream(includes.split(",")).map(String::strip).filter(g -> !g.isEmpty())
                .map(g -> FileSystems.getDefault().getPathMatcher("glob:" + g)).toList();
        Path resources = Tools.ROOT.resolve("src/main/resources");
        List<Path> scripts;
        try (Stream<Path> files = Files.walk(resources.resolve("lua"))) {
            scripts = files.filter(Files::isRegularFile).map(resources::relativize).toList();
        }
        assertTrue(scripts.size() > 5, "found the scripts: " + scripts);
        for (Path script : scripts) {
            assertTrue(matchers.stream().anyMatch(m -> m.matches(script)),
                    script + " is not matched by quarkus.native.resources.includes=" + includes);
        }
    }
}
