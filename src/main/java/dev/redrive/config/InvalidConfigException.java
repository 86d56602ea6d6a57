package dev.redrive.config;

/** A configuration value that stops start-up; the message names the property and what is allowed. */
public class InvalidConfigException extends RuntimeException {

    public InvalidConfigException(String property, String problem) {
        super("Invalid configuration: " + property + " " + problem);
    }
}
