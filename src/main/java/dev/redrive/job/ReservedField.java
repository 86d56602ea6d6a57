package dev.redrive.job;

/**
 * The fields redrive writes into a replayed entry for itself (README, "Reserved fields"): the one
 * place they are spelt. lib/replay-entry.lua spells them again, writing them and dropping a
 * producer's own copies on replay (RecordSchemaTest holds the script to this list). Any producer
 * can write them too, so none is believed from an entry alone: what a replay recorded in the
 * ledger decides a job's replay count and redrive task.
 */
public enum ReservedField {
    /** {@code <dlq>/<id>}: the dead letter the entry was replayed from. */
    REPLAY_OF("replay-of"),
    /** How often the job had been replayed, this replay included. */
    REPLAYS("redrive-replays"),
    /** {@code <dlq>/<task id>}: the bulk redrive that sent it back (deadletter/RedriveTag). */
    REDRIVE_TASK("redrive-task"),
    /** The replayed fields packed in one value, for a replay of more fields than one command takes (PackedFields). */
    PACKED("redrive-packed");

    private final String wireName;

    ReservedField(String wireName) {
        this.wireName = wireName;
    }

    /** The field's name in the stream. */
    public String wireName() {
        return wireName;
    }
}
