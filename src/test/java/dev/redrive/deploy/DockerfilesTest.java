package dev.redrive.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.util.List;

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
            assertTrue(text.contains("quarkus.native.resources.includes='lua/*.lua'"), file + ": Lua scripts in the image");
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
}
