package dev.redrive.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;

import dev.redrive.redis.RedisKeys;
import dev.redrive.testing.ApiProfile;
import dev.redrive.testing.Browser;
import dev.redrive.testing.ForeignPage;
import dev.redrive.testing.Own;
import dev.redrive.testing.TestQueue;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/**
 * What the console refuses, in a real browser (Debian's chromium, {@link Browser}): a viewer sees
 * masked fields and no buttons, and the server refuses what a forged request tries; a page of
 * another origin gets nothing done with an operator's cookies.
 */
@QuarkusTest
@TestProfile(ApiProfile.class)
class ConsoleSafetyBrowserTest {

    final Browser browser = Browser.session();

    @Inject
    @Own("kiosk")
    TestQueue kiosk;

    @Inject
    RedisDataSource redis;

    /** Parks a job that timed out through the worker; returns the console path of its entry. */
    String parkedEntry(String order) {
        String originId = kiosk.add(Map.of("cause", "timeout", "order", order, "card", "4111-" + order,
                "payload", "{\"order\":" + order + ",\"total\":12.5}"));
        return "/console" + kiosk.dlqPath() + "/entries/" + kiosk.awaitParked(originId);
    }

    boolean stillParked(String entry) {
        return kiosk.deadLetters().stream().anyMatch(m -> entry.endsWith("/entries/" + m.id()));
    }

    @Test
    void aViewerSeesMaskedFieldsNoButtonsAndForgedPostsAreRefused() throws Exception {
        String entry = parkedEntry("300");
        browser.login("viewer");
        browser.open(entry);
        WebElement card = browser.until(d -> d.findElement(By.cssSelector("[data-masked='card']")));
        assertEquals(FieldView.MASK, card.getText());
        assertFalse(browser.driver().getPageSource().contains("4111-300"));
        assertEquals(List.of(), browser.driver().findElements(By.cssSelector("#replay, #discard, #reveal, details.action")));
        browser.screenshot("entry-viewer");

        // A viewer's posts are refused whether they carry the page's token or not (roles are checked first).
        String token = browser.driver().findElement(By.name("csrf-token")).getAttribute("value");
        assertEquals(403L, browser.post(entry + "/discard", "reason=forged"));
        assertEquals(403L, browser.post(entry + "/discard", "reason=forged&csrf-token=" + token));
        assertEquals(403L, browser.post(entry + "/reveal", "csrf-token=" + token));
        assertTrue(stillParked(entry), "still parked");
    }

    @Test
    void aPageOnAnotherPortOfTheSameHostCannotPostWithTheOperatorsCookies() throws Exception {
        String entry = Browser.base() + parkedEntry("600");
        browser.login("operator");
        var tasks = redis.key(String.class).keys(RedisKeys.redriveTask(kiosk.dlq(), "*"));
        long audited = redis.stream(String.class, String.class, String.class).xlen(RedisKeys.audit(kiosk.dlq()));
        // Same host, another port: the same site, so the browser sends the SameSite=Strict cookies; not the same origin.
        ForeignPage.visit(browser, List.of(Browser.base() + "/console" + kiosk.dlqPath() + "/redrives", entry + "/reveal",
                entry + "/discard").stream().map(u -> ForeignPage.Fetch.post(u, null)).toList());
        assertTrue(stillParked(entry), "still parked");
        assertEquals(tasks, redis.key(String.class).keys(RedisKeys.redriveTask(kiosk.dlq(), "*")), "no redrive");
        assertEquals(audited, redis.stream(String.class, String.class, String.class).xlen(RedisKeys.audit(kiosk.dlq())),
                "no reveal, discard or redrive audited");
    }
}
