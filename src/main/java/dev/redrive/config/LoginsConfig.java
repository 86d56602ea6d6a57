package dev.redrive.config;

import java.time.Duration;

import io.smallrye.config.WithDefault;

/** How failed logins are limited ({@code redrive.logins}, README "Logins"): the API's Basic and the console's form alike. */
public interface LoginsConfig {
    /** Failed logins of one user before the next must wait; 1 to 1000. Defaults to 5. */
    @WithDefault("5")
    int freeFailures();

    /**
     * Failed logins from one client address before the next must wait, of any users: higher
     * than per user, as people behind one proxy or NAT share an address; 1 to 1000000.
     * Defaults to 50.
     */
    @WithDefault("50")
    int freeFailuresPerAddress();

    /**
     * The first wait, from the last failure; each further failure doubles it; 100ms to 1h.
     * Defaults to 1s.
     */
    @WithDefault("1s")
    Duration lockout();

    /**
     * The longest wait: how long someone who knows a user's name can keep that user out with
     * wrong passwords, and how slow guessing gets (one guess per wait); from lockout to 24h.
     * Defaults to 1m.
     */
    @WithDefault("1m")
    Duration maxLockout();

    /** Failures are forgotten this long after the last one; from max-lockout to 7d. Defaults to 15m. */
    @WithDefault("15m")
    Duration forgetAfter();

    /**
     * Users and addresses counted at once; past it the one whose last failure is oldest is
     * forgotten, so memory stays bounded; 100 to 10000000. Defaults to 10000.
     */
    @WithDefault("10000")
    int tracked();
}
