package dev.redrive.console;

import static dev.redrive.testing.Api.as;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;

import dev.redrive.testing.ApiProfile;
import dev.redrive.testing.Await;
import dev.redrive.testing.Browser;
import dev.redrive.testing.FixableHandler;
import dev.redrive.testing.Own;
import dev.redrive.testing.TestQueue;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.redis.datasource.stream.StreamMessage;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.smallrye.common.annotation.Identifier;

/**
 * The console in a real browser (Debian's chromium, {@link Browser}), on the same boot as the API
 * tests: an operator finds a cause among parked jobs, canary-redrives it and watches it finish;
 * an entry's timeline walks a replay chain back; the causes page and the overview chart the parks.
 * Each page is saved as a screenshot under target/console-screenshots/. What the console refuses
 * is ConsoleSafetyBrowserTest's, proposals ProposalBrowserTest's.
 */
@QuarkusTest
@TestProfile(ApiProfile.class)
class ConsoleBrowserTest {

    final Browser browser = Browser.session();

    @Inject
    @Own("shop")
    TestQueue shop;

    @Inject
    RedisDataSource redis;

    @Inject
    @Identifier("fixable")
    FixableHandler handler;

    /** Parks a job of {@code cause} through the worker; returns {origin id, dead-letter id}. */
    String[] park(String cause, String order) {
        String originId = shop.add(Map.of("cause", cause, "order", order, "card", "4111-" + order,
                "payload", "{\"order\":" + order + ",\"total\":12.5}"));
        return new String[] { originId, shop.awaitParked(originId) };
    }

    @Test
    void anOperatorFindsACauseCanaryRedrivesItAndTheJobsLandBackOnTheirStream() throws Exception {
        for (int i = 1; i <= 6; i++) {
            park("declined", Integer.toString(100 + i));
        }
        park("timeout", "200");
        park("timeout", "201");
        browser.login("operator");
        browser.until(d -> d.findElements(By.cssSelector("[data-depth='" + shop.dlq() + "']")).size() == 1);
        browser.screenshot("overview");

        browser.click(By.linkText(shop.dlq()));
        WebElement cause = browser.until(d -> d.findElements(By.cssSelector("article.cause")).stream()
                .filter(a -> a.getText().contains("payment provider declined card for order")).findFirst().orElse(null));
        assertTrue(cause.getText().startsWith("6 "), cause.getText());
        browser.screenshot("causes");

        handler.fix(shop.stream(), "declined"); // the provider is fixed: the redrive should now succeed
        cause.findElement(By.tagName("summary")).click();
        WebElement canary = cause.findElement(By.name("canary"));
        canary.clear();
        canary.sendKeys("2");
        cause.findElement(By.cssSelector("button.primary")).click();

        // The task page refreshes itself (console.js) until the task is done.
        browser.until(d -> d.getCurrentUrl().contains("/redrives/"));
        browser.until(d -> "completed".equals(d.findElement(By.id("state")).getText()));
        assertEquals("canary passed: 0 of 2 canary jobs came back", browser.driver().findElement(By.id("verdict")).getText());
        assertEquals("6", browser.driver().findElement(By.id("moved")).getText());
        assertEquals("0", browser.driver().findElement(By.id("remaining")).getText());
        browser.screenshot("redrive");

        // The six jobs are back on their stream as replays of their dead letters, and done.
        List<StreamMessage<String, String, byte[]>> back = shop.entries().stream()
                .filter(m -> text(m, "replay-of").startsWith(shop.dlq() + "/") && text(m, "cause").equals("declined")).toList();
        assertEquals(6, back.size());
        assertTrue(shop.deadLetters().stream().noneMatch(m -> text(m, "f:cause").equals("declined")));

        // The search form, as a person uses it (a GET form: its spaces travel as '+').
        browser.open("/console" + shop.dlqPath() + "/entries");
        browser.driver().findElement(By.name("text")).sendKeys("Timed Out");
        browser.driver().findElement(By.cssSelector("form.filter button")).click();
        browser.until(d -> d.getCurrentUrl().contains("text=Timed+Out"));
        List<WebElement> rows = browser.driver().findElements(By.cssSelector("table.entries tbody tr"));
        assertTrue(rows.size() >= 2, "the two timeouts at least");
        assertTrue(rows.stream().allMatch(r -> r.getText().contains("ledger timed out after")), "only timeouts");
        browser.screenshot("entries");

        // A forged post from this operator's browser without the form's token is refused, and changes nothing.
        String someTimeout = rows.get(0).findElement(By.cssSelector("th a")).getText();
        assertEquals(400L, browser.post("/console" + shop.dlqPath() + "/entries/" + someTimeout + "/discard", "reason=forged"));
        assertTrue(shop.deadLetters().stream().anyMatch(m -> m.id().equals(someTimeout)), "still parked");
    }

    @Test
    void anEntrysTimelineFollowsItsReplayChainBack() throws Exception {
        String[] first = park("schema", "400");
        String second = replayAndAwaitPark(first);
        String third = replayAndAwaitPark(new String[] { null, second });
        browser.login("operator");
        browser.open("/console" + shop.dlqPath() + "/entries/" + third);
        WebElement back = browser.until(d -> d.findElement(By.cssSelector("a.replay-of")));
        assertEquals(second, back.getText());
        browser.screenshot("entry-timeline");
        back.click();
        // The second is gone (replayed): its page is its history, which still links further back.
        // The third's page has an a.replay-of too, so the new page is waited for by its address first.
        browser.until(d -> d.getCurrentUrl().endsWith("/entries/" + second));
        WebElement further = browser.until(d -> d.findElement(By.cssSelector("a.replay-of")));
        assertTrue(browser.driver().getPageSource().contains("no longer parked"));
        assertTrue(browser.driver().findElement(By.cssSelector(".timeline")).getText().contains("replayed by operator"));
        assertEquals(first[1], further.getText());
        further.click();
        browser.until(d -> d.getCurrentUrl().endsWith("/entries/" + first[1]));
        assertEquals(List.of(), browser.driver().findElements(By.cssSelector("a.replay-of")), "the chain starts here");
    }

    @Test
    void theCausesPageAndTheOverviewChartWhenJobsParked() throws Exception {
        park("timeout", "500");
        park("timeout", "501");
        browser.login("viewer");
        browser.open("/console" + shop.dlqPath() + "/causes");

        // This class never takes a timeout out of the stream, so its cause's parks of the last 24
        // hours are its count, whichever hours they fell in.
        WebElement cause = browser.until(d -> d.findElements(By.cssSelector("article.cause")).stream()
                .filter(a -> a.getText().contains("ledger timed out after")).findFirst().orElse(null));
        long count = Long.parseLong(cause.findElement(By.cssSelector(".count")).getText());
        WebElement chart = cause.findElement(By.cssSelector("svg.park-chart"));
        assertTrue(chart.getAttribute("aria-label").startsWith(count + " parks of cause "), chart.getAttribute("aria-label"));
        assertEquals(count, bars(chart));

        // The stream's chart counts every park into it, gone since or not: all of this run's.
        long added = entriesAdded(shop.dlq());
        WebElement streamChart = browser.driver().findElement(By.cssSelector(".stream-parks svg.park-chart"));
        assertTrue(streamChart.getAttribute("aria-label").startsWith(added + " parks of " + shop.dlq() + " "),
                added + " parks: " + streamChart.getAttribute("aria-label"));
        assertEquals(added, bars(streamChart));
        browser.screenshot("parks-chart");

        browser.open("/console");
        // The overview refreshes itself: a chart found may be replaced before it is read, then read the new one.
        String row = browser.until(d -> {
            try {
                return d.findElement(By.xpath("//tr[th/a[text()='" + shop.dlq() + "']]//*[local-name()='svg']")).getAttribute("aria-label");
            } catch (org.openqa.selenium.StaleElementReferenceException replaced) {
                return null;
            }
        });
        assertTrue(row.startsWith(added + " parks of " + shop.dlq() + " "), row);
    }

    /** The parks a chart's bars stand for. */
    static long bars(WebElement chart) {
        return chart.findElements(By.cssSelector("rect.bar")).stream().mapToLong(b -> Long.parseLong(b.getAttribute("data-count")))
                .sum();
    }

    /** Entries ever added to a stream (XINFO shop.stream()'s entries-added): each one a park. */
    long entriesAdded(String stream) {
        io.vertx.mutiny.redis.client.Response info = redis.execute("XINFO", "STREAM", stream);
        for (int i = 0; i + 1 < info.size(); i += 2) {
            if ("entries-added".equals(info.get(i).toString())) {
                return info.get(i + 1).toLong();
            }
        }
        return info.get("entries-added").toLong();
    }

    /** Replays a dead letter through the API while its cause is still broken; returns the id it is parked again as. */
    String replayAndAwaitPark(String[] deadLetter) {
        String newId = as("operator").contentType("application/json").body("{}").post(shop.dlqPath() + "/entries/" + deadLetter[1] + "/replay")
                .then().statusCode(201).extract().path("id");
        return Await.value("replay " + newId + " parked again",
                () -> shop.parked(newId).map(StreamMessage::id).orElse(null));
    }

    static String text(StreamMessage<String, String, byte[]> m, String field) {
        byte[] v = m.payload().get(field);
        return v == null ? "" : new String(v, StandardCharsets.UTF_8);
    }
}
