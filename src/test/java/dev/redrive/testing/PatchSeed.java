package dev.redrive.testing;

import java.util.ArrayList;
import java.util.List;

import dev.redrive.deadletter.RecordField;

/**
 * Dead letters for the tests of a bulk redrive's patch (PatchedRedriveTest, PatchBrowserTest):
 * AI jobs whose {@code input} field is a JSON object, the patch they are redriven with, and what
 * that patch must make of the input, byte for byte.
 */
public final class PatchSeed {

    /** An AI job's input: a 2^63-1 integer, escaped unicode and quotes, a nested object, irregular spacing. */
    public static final String INPUT = "{\"model\": \"old\", \"big\": 9223372036854775807, \"text\": \"caf\\u00e9 \\\"q\\\"\","
            + " \"nested\": {\"keep\": 1.10, \"drop\": true}, \"list\": [1, 2]}";
    /** RFC 7396 on that text: what the patch names changes, every other byte stays. */
    public static final String PATCHED_INPUT = "{\"model\": \"new\", \"big\": 9223372036854775807, \"text\": \"caf\\u00e9 "
            + "\\\"q\\\"\", \"nested\": {\"keep\": 1.10,\"add\":{\"deep\":1}}, \"list\": [1, 2],\"extra\":[1]}";
    /** Sets model and adds added, removes legacy, merges into input. */
    public static final String PATCH = "{\"set\": {\"model\": \"gpt-new\", \"added\": \"yes\"}, \"remove\": [\"legacy\"], "
            + "\"json\": {\"input\": {\"model\": \"new\", \"nested\": {\"drop\": null, \"add\": {\"deep\": 1}}, "
            + "\"extra\": [1]}}}";

    private PatchSeed() {
    }

    /**
     * Parks n jobs of {@code origin} named {@code job} (fields n, model, legacy, input, tail): the
     * first and every 50th after it have no input, every 50th an input that is not JSON. Their
     * dead-letter ids, in order.
     */
    public static List<String> park(TestQueue queue, String origin, String job, int n) {
        List<DeadLetterSeed> seeds = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
            DeadLetterSeed seed = DeadLetterSeed.from(origin, i + "-0").with(RecordField.JOB, job)
                    .snapshot("n", Integer.toString(i)).snapshot("model", "gpt-old").snapshot("legacy", "x");
            if (i % 50 != 1) {
                seed.snapshot("input", i % 50 == 0 ? "not json {" : INPUT);
            }
            seeds.add(seed.snapshot("tail", "t" + i));
        }
        DeadLetterSeed.parkMany(queue.redis(), queue.dlq(), seeds);
        return new Redrives(queue).listed("job=" + job);
    }
}
