package dev.redrive.deadletter;

import java.util.List;

/**
 * A page of a listing. {@code next} is the cursor to ask for the following page with, or null
 * when the end of the stream was reached; a page may hold fewer items than asked (even none)
 * while {@code next} is set, because each request examines a bounded number of entries.
 */
public record Page<T>(List<T> items, String next, int examined) {
}
