package dev.redrive.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaMethodCall;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;

/**
 * What a native image would hold, checked without GraalVM (none here, nor a container engine):
 * Quarkus' sources-only native build writes the runner jar and the arguments native-image would
 * get, and the jar's {@code META-INF/native-image/resource-config.json} and
 * {@code reflect-config.json} say which resources and which reflectively used types the image
 * would contain. Most native failures are decided there, before native-image runs.
 * <p>
 * The build runs on a copy of {@code pom.xml} and {@code src/main} in a temporary folder, so it
 * can't disturb the jar the other process-level tests run. Given {@code -Dredrive.native-sources}
 * (a {@code target/native-sources} folder already built), it reads that instead.
 */
class NativeReadinessIT {

    static final Path ROOT = Path.of("").toAbsolutePath();
    static final Path RESOURCES = ROOT.resolve("src/main/resources");

    static Path copy;
    static List<Pattern> resourceIncludes;
    static Set<String> reflected;

    @BeforeAll
    static void buildNativeSources() throws Exception {
        Path sources;
        String given = System.getProperty("redrive.native-sources");
        if (given != null && !given.isBlank()) {
            sources = Path.of(given);
        } else {
            copy = Files.createTempDirectory("redrive-native-sources");
            Files.copy(ROOT.resolve("pom.xml"), copy.resolve("pom.xml"));
            copyTree(ROOT.resolve("src/main"), copy.resolve("src/main"));
            Path log = copy.resolve("build.log");
            Process build = new ProcessBuilder("mvn", "-B", "-q", "package", "-Dmaven.test.skip=true",
                    "-Dquarkus.native.enabled=true", "-Dquarkus.native.sources-only=true")
                    .directory(copy.toFile()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
            if (!build.waitFor(15, TimeUnit.MINUTES)) {
                build.destroyForcibly();
                throw new AssertionError("the sources-only native build took over 15 minutes; its log: " + log);
            }
            assertEquals(0, build.exitValue(), () -> "the sources-only native build failed:\n" + read(log));
            sources = copy.resolve("target/native-sources");
        }
        Path runner;
        try (Stream<Path> files = Files.list(sources)) {
            runner = files.filter(p -> p.getFileName().toString().endsWith("-runner.jar")).findFirst()
                    .orElseThrow(() -> new AssertionError("no runner jar in " + sources));
        }
        ObjectMapper json = new ObjectMapper();
        try (ZipFile jar = new ZipFile(runner.toFile())) {
            JsonNode resources = json.readTree(entry(jar, "META-INF/native-image/resource-config.json"));
            resourceIncludes = new ArrayList<>();
            resources.path("resources").path("includes")
                    .forEach(include -> resourceIncludes.add(Pattern.compile(include.path("pattern").asText())));
            reflected = new TreeSet<>();
            json.readTree(entry(jar, "META-INF/native-image/reflect-config.json"))
                    .forEach(type -> reflected.add(type.path("name").asText()));
        }
    }

    @AfterAll
    static void removeCopy() throws IOException {
        if (copy != null) {
            try (Stream<Path> files = Files.walk(copy)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    /**
     * Every file the code loads from the class path at run time is in the image: the Lua scripts
     * (LuaScripts reads them with getResourceAsStream at start-up, so a missing one is a service
     * that can't start). Files Quarkus serves or reads itself at build time are not asked for:
     * application.properties, META-INF/resources (static files) and templates/ (Qute).
     */
    @Test
    void everyResourceTheCodeLoadsIsInTheImage() throws IOException {
        List<String> loaded;
        try (Stream<Path> files = Files.walk(RESOURCES)) {
            loaded = files.filter(Files::isRegularFile).map(p -> RESOURCES.relativize(p).toString().replace('\\', '/'))
                    .filter(p -> !p.startsWith("application") && !p.startsWith("META-INF/resources/")
                            && !p.startsWith("templates/"))
                    .sorted().toList();
        }
        assertTrue(loaded.contains("lua/dead-letter.lua") && loaded.contains("lua/lib/fields.lua"),
                "found the scripts and their libraries: " + loaded);
        List<String> missing = loaded.stream()
                .filter(p -> resourceIncludes.stream().noneMatch(include -> include.matcher(p).matches())).toList();
        assertEquals(List.of(), missing, "resources a native image would lack (quarkus.native.resources.includes "
                + "in application.properties names what goes in); included: " + resourceIncludes);
    }

    /**
     * Every type the code hands to Jackson by hand (not through a REST resource's signature, which
     * Quarkus registers itself) is registered for reflection: in a native image an unregistered
     * record reads back as an error, and a redrive task's stored filter is such a type. A read is
     * found by the class literal its method passes (readValue(text, EntryFilter.class)), a write by
     * the parameter types of the method that writes (json(EntryFilter filter)).
     */
    @Test
    void everyTypeMappedByHandIsRegisteredForReflection() {
        JavaClasses classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.redrive");
        Set<String> byHand = new TreeSet<>();
        for (JavaClass type : classes) {
            for (JavaMethodCall call : type.getMethodCallsFromSelf()) {
                String owner = call.getTargetOwner().getName();
                String name = call.getName();
                if (!owner.startsWith("com.fasterxml.jackson.databind.")) {
                    continue;
                }
                JavaCodeUnit origin = call.getOrigin();
                if (name.startsWith("read") || name.equals("treeToValue") || name.equals("convertValue")) {
                    origin.getReferencedClassObjects().forEach(literal -> byHand.add(literal.getRawType().getName()));
                }
                if (name.startsWith("write") || name.equals("valueToTree") || name.equals("convertValue")) {
                    origin.getRawParameterTypes().forEach(parameter -> byHand.add(parameter.getName()));
                }
            }
        }
        byHand.removeIf(name -> !name.startsWith("dev.redrive."));
        assertTrue(byHand.contains("dev.redrive.deadletter.EntryFilter"),
                "found the redrive task's filter among the types mapped by hand: " + byHand);
        List<String> missing = byHand.stream().filter(name -> !reflected.contains(name)).toList();
        assertEquals(List.of(), missing, "types mapped by hand but not registered for reflection "
                + "(annotate them @RegisterForReflection)");
    }

    /**
     * Every service a plain library (no Quarkus extension) on redrive's request paths finds through
     * ServiceLoader is in the image: its {@code META-INF/services} file among the resources and
     * each provider it names registered for reflection. Quarkus registers its extensions' services
     * itself (OpenTelemetry's, SmallRye's) and runs native-image without GraalVM's automatic
     * service registration, so a library's are left out unless the application adds them: the MCP
     * SDK finds its JSON mapper and schema validator that way, and every /mcp call of a native
     * redrive answered 500. A library counts when one of its classes calls ServiceLoader.load; its
     * services are the files named after its own packages, read from the class path's jars.
     */
    @Test
    void everyServiceALibraryLooksUpIsInTheImage() throws IOException {
        String library = "io.modelcontextprotocol";
        JavaClasses classes = new ClassFileImporter().importPackages(library);
        assertTrue(classes.stream().anyMatch(type -> type.getMethodCallsFromSelf().stream()
                .anyMatch(call -> call.getTarget().getFullName().startsWith("java.util.ServiceLoader.load"))),
                library + " looks services up");
        Map<String, List<String>> services = new TreeMap<>();
        for (String entry : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
            if (!entry.endsWith(".jar")) {
                continue;
            }
            try (ZipFile jar = new ZipFile(entry)) {
                for (ZipEntry file : java.util.Collections.list(jar.entries())) {
                    if (file.getName().startsWith("META-INF/services/" + library + ".")) {
                        services.put(file.getName(), new String(entry(jar, file.getName()), java.nio.charset.StandardCharsets.UTF_8)
                                .lines().map(line -> line.replaceAll("#.*", "").strip()).filter(line -> !line.isEmpty())
                                .toList());
                    }
                }
            }
        }
        assertTrue(services.keySet().stream().anyMatch(f -> f.endsWith("JsonSchemaValidatorSupplier")),
                "found the MCP SDK's services on the class path: " + services);
        List<String> missing = new ArrayList<>();
        services.forEach((file, providers) -> {
            if (resourceIncludes.stream().noneMatch(include -> include.matcher(file).matches())) {
                missing.add(file + " (quarkus.native.resources.includes)");
            }
            providers.stream().filter(p -> !reflected.contains(p)).forEach(p -> missing.add(p + " (@RegisterForReflection)"));
        });
        assertEquals(List.of(), missing, "services a native image would lack");
    }

    /** Nothing the service runs needs a JIT's class loading: no class by name, no unregistered service lookup, no AWT. */
    @Test
    void nothingLoadsClassesByNameOrNeedsAwt() {
        JavaClasses classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.redrive");
        List<String> found = new ArrayList<>();
        for (JavaClass type : classes) {
            for (JavaMethodCall call : type.getMethodCallsFromSelf()) {
                String target = call.getTargetOwner().getName() + "." + call.getName();
                if (target.equals("java.lang.Class.forName") || target.equals("java.lang.ClassLoader.loadClass")
                        || target.equals("java.util.ServiceLoader.load")) {
                    found.add(call.getDescription());
                }
            }
            type.getDirectDependenciesFromSelf().stream()
                    .filter(d -> d.getTargetClass().getPackageName().startsWith("java.awt"))
                    .forEach(d -> found.add(d.getDescription()));
        }
        assertFalse(classes.isEmpty(), "imported redrive's classes");
        assertEquals(List.of(), found, "code paths that only work with a JIT's class loading");
    }

    private static byte[] entry(ZipFile jar, String name) throws IOException {
        ZipEntry entry = jar.getEntry(name);
        if (entry == null) {
            throw new AssertionError("the runner jar has no " + name);
        }
        try (InputStream in = jar.getInputStream(entry)) {
            return in.readAllBytes();
        }
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target);
                }
            }
        }
    }

    private static String read(Path log) {
        try {
            String text = Files.readString(log);
            return text.length() > 20_000 ? text.substring(text.length() - 20_000) : text;
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }
}
