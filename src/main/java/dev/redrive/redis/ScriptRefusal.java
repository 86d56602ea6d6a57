package dev.redrive.redis;

import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Whether Redis refuses redrive's scripts now: the permission error (NOPERM) the last refused
 * script got, until a script runs again. A permission revoked at run time ({@code ACL SETUSER
 * redrive -evalsha}) leaves PING and the pool healthy, yet no job can be claimed or parked; readiness
 * asks this ({@link LuaScripts#refusal()}) and is DOWN, naming the command, for as long as it lasts.
 * Every script runs through {@link LuaScripts}, and the gauges run one every gauge interval, so a
 * permission given back shows within one interval.
 */
final class ScriptRefusal {

    /** Redis 7: "NOPERM User redrive has no permissions to run the 'evalsha' command". */
    private static final Pattern COMMAND = Pattern.compile("'([^']+)' command");

    private final AtomicReference<String> current = new AtomicReference<>();

    /** What a script's answer says of the user's permissions: a refusal is noted, anything else ends one. */
    void answered(Throwable failure) {
        if (failure == null) {
            if (current.get() != null) {
                current.set(null);
            }
            return;
        }
        if (!"NOPERM".equals(RedisProblems.code(failure.getMessage()))) {
            return;
        }
        Matcher m = COMMAND.matcher(failure.getMessage());
        String what = m.find() ? m.group(1).toUpperCase(Locale.ROOT) : "a key";
        current.set("Redis refuses " + what + " to redrive's user (" + failure.getMessage() + "): "
                + RedisProblems.hint(failure));
    }

    Optional<String> current() {
        return Optional.ofNullable(current.get());
    }
}
