package dev.redrive;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.belongToAnyOf;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackages;
import static com.tngtech.archunit.core.domain.JavaCall.Predicates.target;
import static com.tngtech.archunit.core.domain.properties.HasName.Predicates.nameMatching;
import static com.tngtech.archunit.core.domain.properties.HasOwner.Predicates.With.owner;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;

import dev.redrive.testing.Streams;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.vertx.redis.client.Response;
import io.vertx.redis.client.ResponseType;

/**
 * The package rules of docs/ARCHITECTURE.md, checked on the compiled main classes: an import that
 * climbs the wrong way fails here, with the offending class and line, instead of slowly tangling
 * the packages again.
 */
class ArchitectureTest {

    static final String ROOT = "dev.redrive..";

    static final String[] REDIS_CLIENT = { "io.quarkus.redis..", "io.vertx.redis..", "io.vertx.mutiny.redis.." };

    static final JavaClasses MAIN = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages("dev.redrive");

    static final JavaClasses TESTS = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.ONLY_INCLUDE_TESTS).importPackages("dev.redrive");

    static final String TESTING = "dev.redrive.testing..";

    /**
     * The only packages that may import {@code worker}: itself. {@code worker} wires the running
     * process together (it starts the queue workers, the retry scheduler, the stall reclaimer and
     * the receive-limit watches); whatever else needs to know a stream name asks config's
     * QueueRegistry, and readiness learns the queues' states through observe's QueueStates.
     */
    static final String[] MAY_IMPORT_WORKER = { "dev.redrive.worker.." };

    @Test
    void jobImportsNothingElseOfRedrive() {
        noClasses().that().resideInAPackage("dev.redrive.job..")
                .should().dependOnClassesThat(resideInAPackage(ROOT).and(resideOutsideOfPackages("dev.redrive.job..")))
                .because("a job and its handlers are what every other package builds on")
                .check(MAIN);
    }

    @Test
    void retryImportsNothingOfRedriveButJob() {
        noClasses().that().resideInAPackage("dev.redrive.retry..")
                .should().dependOnClassesThat(resideInAPackage(ROOT)
                        .and(resideOutsideOfPackages("dev.redrive.retry..", "dev.redrive.job..")))
                .because("the retry decision is a pure function of the failure, the attempt and the policy")
                .check(MAIN);
    }

    @Test
    void redisKnowsNoPolicy() {
        noClasses().that().resideInAPackage("dev.redrive.redis..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.redrive.deadletter..", "dev.redrive.redrive..",
                        "dev.redrive.worker..", "dev.redrive.api..", "dev.redrive.console..", "dev.redrive.retry..")
                .because("redis/ sends commands and scripts; when to send them is decided above it")
                .check(MAIN);
    }

    /**
     * Bulk redrives are built on the dead-letter policy (records, replays, the read side), never
     * the other way round: a park learns of a redrive only from its tag (deadletter/RedriveTag) and
     * the replay ledger, both below redrive/.
     */
    @Test
    void redriveImportsOnlyWhatItIsBuiltOn() {
        noClasses().that().resideInAPackage("dev.redrive.redrive..")
                .should().dependOnClassesThat(resideInAPackage(ROOT).and(resideOutsideOfPackages("dev.redrive.redrive..",
                        "dev.redrive.deadletter..", "dev.redrive.redis..", "dev.redrive.config..", "dev.redrive.job..",
                        "dev.redrive.trace..", "dev.redrive.time..")))
                .because("a bulk redrive is many replays, paced: the packages below it hold everything else")
                .check(MAIN);
        noClasses().that().resideOutsideOfPackages("dev.redrive.redrive..", "dev.redrive.api..", "dev.redrive.console..")
                .should().dependOnClassesThat().resideInAPackage("dev.redrive.redrive..")
                .because("only the operator API and the console start, follow and cancel redrives")
                .check(MAIN);
    }

    /**
     * The API reaches Redis through deadletter/, redrive/ and redis/. One named exception: RedisFailures reads
     * the type and first word of a Redis error reply that reached the API as a failure, to answer 503
     * rather than 500; it sends nothing, and may see no other Redis class.
     */
    @Test
    void apiNeverReachesRedisDirectly() {
        noClasses().that().resideInAPackage("dev.redrive.api..")
                .should().dependOnClassesThat(resideInAnyPackage(REDIS_CLIENT)
                        .and(not(belongToAnyOf(Response.class, ResponseType.class))))
                .because("the API asks deadletter/, redrive/ and redis/, which own every command it causes")
                .check(MAIN);
        noClasses().that().resideInAPackage("dev.redrive.api..")
                .and().doNotHaveFullyQualifiedName("dev.redrive.api.RedisFailures")
                .should().dependOnClassesThat().resideInAnyPackage(REDIS_CLIENT)
                .because("only RedisFailures may read a Redis error reply")
                .check(MAIN);
    }

    /**
     * trace/ starts spans for what the other packages do (attempts, replays) and knows of a job only
     * what job/ says: the worker, the dead-letter policy and the redrive runner call it, never the
     * other way round.
     */
    @Test
    void traceImportsOnlyJob() {
        noClasses().that().resideInAPackage("dev.redrive.trace..")
                .should().dependOnClassesThat(resideInAPackage(ROOT)
                        .and(resideOutsideOfPackages("dev.redrive.trace..", "dev.redrive.job..")))
                .because("spans describe the work; deciding it stays in the packages that do it")
                .check(MAIN);
    }

    /**
     * The console is a second face of the operator API: it checks requests with the API's own
     * pieces (filters, roles, read permits, problems) and acts through the same services, so it is
     * the one package allowed above {@code api}; nothing is built on the console.
     */
    @Test
    void onlyTheConsoleImportsApi() {
        noClasses().that().resideOutsideOfPackages("dev.redrive.api..", "dev.redrive.console..")
                .should().dependOnClassesThat().resideInAPackage("dev.redrive.api..")
                .because("the REST API is the outermost layer but for the console, which is built on it")
                .check(MAIN);
        noClasses().that().resideOutsideOfPackage("dev.redrive.console..")
                .should().dependOnClassesThat().resideInAPackage("dev.redrive.console..")
                .because("the console is the outermost layer: nothing is built on it")
                .check(MAIN);
    }

    /** The console acts and reads through deadletter/, redrive/ and api/: it sends no Redis command itself. */
    @Test
    void consoleNeverReachesRedisDirectly() {
        noClasses().that().resideInAPackage("dev.redrive.console..")
                .should().dependOnClassesThat().resideInAnyPackage(REDIS_CLIENT)
                .because("every command the console causes is sent by the code the API uses too")
                .check(MAIN);
        noClasses().that().resideInAPackage("dev.redrive.console..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.redrive.redis..", "dev.redrive.worker..")
                .because("the console asks the dead-letter and redrive services, never the layer below them")
                .check(MAIN);
    }

    @Test
    void nothingImportsWorkerButTheWiring() {
        noClasses().that().resideOutsideOfPackages(MAY_IMPORT_WORKER)
                .should().dependOnClassesThat().resideInAPackage("dev.redrive.worker..")
                .because("what the workers know (streams, names) comes from configuration, before they start")
                .check(MAIN);
    }

    /**
     * time/ is the one owner of time for the worker, the redrive runner and the dead-letter log
     * (Timers: timers, periodic work, the clock): they never set a Vert.x timer themselves, so a
     * test can step every one of them (testing/SteppableTimers). time/ is built on nothing of redrive.
     */
    @Test
    void timersHaveOneOwner() {
        noClasses().that().resideInAnyPackage("dev.redrive.worker..", "dev.redrive.redrive..", "dev.redrive.deadletter..")
                .should().callMethodWhere(target(nameMatching("setTimer|setPeriodic|cancelTimer|timer|timerStream|periodicStream"))
                        .and(target(owner(resideInAPackage("io.vertx..")))))
                .because("timers go through time/Timers, which production backs with Vert.x and tests step")
                .check(MAIN);
        noClasses().that().resideInAPackage("dev.redrive.time..")
                .should().dependOnClassesThat(resideInAPackage(ROOT)
                        .and(resideOutsideOfPackages("dev.redrive.time..", "dev.redrive.job..")))
                .because("time is below every package that uses it, beside job (whose Durations saturate)")
                .check(MAIN);
    }

    @Test
    void noPackageCycles() {
        slices().matching("dev.redrive.(*)..").should().beFreeOfCycles().check(MAIN);
    }

    /**
     * deadletter/ holds policy: every Redis command it causes is sent by a redis/ type, and replies
     * reach it as plain Java values or a {@code ScriptReply}.
     */
    @Test
    void deadletterSendsNoRedisCommandItself() {
        noClasses().that().resideInAPackage("dev.redrive.deadletter..")
                .should().dependOnClassesThat().resideInAnyPackage(REDIS_CLIENT)
                .because("redis/ owns the commands, their KEYS and ARGV and the reply types; deadletter/ decides")
                .check(MAIN);
    }

    /**
     * The tests' fixtures have one owner, testing/: a test class gets its queue's streams from
     * {@code @Inject @Own("name") TestQueue} (the group awaited, the PEL checked), never by making
     * and awaiting them itself, and its boot from one of the profiles there, each a Quarkus start
     * shared by every class that names it (with the test resources the profile lists).
     */
    @Test
    void testsTakeTheirFixturesFromTesting() {
        noClasses().that().resideOutsideOfPackage(TESTING)
                .should().callConstructor(Streams.class, RedisDataSource.class)
                .orShould().callMethod(Streams.class, "awaitGroup", String.class, String.class)
                .because("a test class's streams come from testing/TestQueue, injected with @Own")
                .check(TESTS);
        noClasses().that().resideOutsideOfPackage(TESTING)
                .should().implement(QuarkusTestProfile.class)
                .orShould().beAnnotatedWith(WithTestResource.class)
                .orShould().beAnnotatedWith(WithTestResource.List.class)
                .because("each test profile is a Quarkus boot: they live in testing/ and list their own test resources")
                .check(TESTS);
    }

    /**
     * bench/ is in the build: {@code mvn verify} compiles {@code bench/java} (its own source set, the
     * {@code bench-compile} execution of the compiler plugin in pom.xml) into
     * {@code target/bench-classes} before the tests run, so every bench source has its class there,
     * at least as new as the source. A bench that only its script compiles breaks unseen on a rename.
     */
    @Test
    void benchSourcesCompileInTheBuild() throws IOException {
        Path sources = Path.of("bench/java"), classes = Path.of("target/bench-classes");
        List<Path> java;
        try (var files = Files.walk(sources)) {
            java = files.filter(f -> f.toString().endsWith(".java")).toList();
        }
        assertFalse(java.isEmpty(), "no bench sources under " + sources);
        for (Path source : java) {
            String name = sources.relativize(source).toString();
            Path compiled = classes.resolve(name.substring(0, name.length() - ".java".length()) + ".class");
            assertTrue(Files.isRegularFile(compiled)
                    && !Files.getLastModifiedTime(compiled).toInstant().isBefore(Files.getLastModifiedTime(source).toInstant()),
                    source + " has no up-to-date class in " + classes + ": the build no longer compiles bench/ (pom.xml, bench-compile)");
        }
        assertTrue(new ClassFileImporter().importPath(classes).contain("dev.redrive.bench.Bench"),
                "no dev.redrive.bench.Bench among " + classes);
    }

    /**
     * The bench and the soak are built on the tests' fixtures: their services come from
     * testing/RedriveProcess, free ports from RedisServer.freePort(), Redis clients are testing's
     * RawRedis (the bench's, Vert.x) and RedisCli (the soak's, blocking).
     */
    @Test
    void benchBuildsOnTheTestFixtures() {
        noClasses().that().resideInAPackage("dev.redrive.bench")
                .should().callConstructor(java.net.ServerSocket.class, int.class)
                .orShould().callMethod(io.vertx.redis.client.Redis.class, "createClient", io.vertx.core.Vertx.class,
                        io.vertx.redis.client.RedisOptions.class)
                .orShould().callMethod(io.vertx.redis.client.Redis.class, "createClient", io.vertx.core.Vertx.class, String.class)
                .because("the bench takes its free ports, launcher and Redis clients from testing/")
                .check(new ClassFileImporter().importPath(Path.of("target/bench-classes")));
    }

    /** Small classes: no Java source over 300 lines in the service, its tests or the bench (issue 25). */
    @Test
    void noClassIsLongerThan300Lines() throws IOException {
        List<String> tooLong = new java.util.ArrayList<>();
        for (String root : List.of("src/main/java", "src/test/java", "bench/java")) {
            try (var files = Files.walk(Path.of(root))) {
                for (Path f : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                    long lines = Files.readAllLines(f).size();
                    if (lines > 300) {
                        tooLong.add(f + " (" + lines + ")");
                    }
                }
            }
        }
        assertTrue(tooLong.isEmpty(), "classes over 300 lines: " + tooLong);
    }
}
