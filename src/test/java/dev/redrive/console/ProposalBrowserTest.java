package dev.redrive.console;

import static dev.redrive.testing.Api.as;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URL;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebElement;

import dev.redrive.deadletter.RecordField;
import dev.redrive.testing.ApiProfile;
import dev.redrive.testing.ApiUsers;
import dev.redrive.testing.Await;
import dev.redrive.testing.Own;
import dev.redrive.testing.Streams;
import dev.redrive.testing.TestQueue;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.redis.datasource.stream.StreamMessage;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/**
 * An operator on call finds a proposed redrive from the console's overview, in a real browser
 * (Debian's chromium): the stream's badge leads to its proposals, the cause the proposal targets
 * links to it, the proposal links back to its cause, and once it is decided the badge and the
 * link are gone. Screenshots go to target/console-screenshots/.
 */
@QuarkusTest
@TestProfile(ApiProfile.class)
class ProposalBrowserTest {

    /** ConsoleBrowserTest's stream, with a cause of its own (FixableHandler's schema) that class never parks. */
    static final String STREAM = "shop";
    static final String DLQ = "{shop}:dlq";
    static final String ENCODED = "%7Bshop%7D%3Adlq";
    static final Duration BOUND = Duration.ofSeconds(30);

    static Browser browser;

    @TestHTTPResource("/")
    URL root;

    @Inject
    @Own("shop")
    TestQueue shop;

    @Inject
    RedisDataSource redis;

    @BeforeAll
    static void start() throws Exception {
        browser = new Browser();
    }

    @AfterAll
    static void stop() throws Exception {
        if (browser != null) {
            browser.close();
        }
    }

    String base() {
        String s = root.toString();
        return s.endsWith("/") ? s.substring(0, s.length() - 1) : s;
    }

    /** Parks a job of the schema cause through the worker; its fingerprint. */
    String parkSchemaJob(String order) {
        String originId = shop.add(Map.of("cause", "schema", "order", order));
        StreamMessage<String, String, byte[]> parked = Await.value("job " + originId + " parked", BOUND,
                () -> shop.parked(originId).orElse(null));
        return Streams.text(parked.payload().get(RecordField.FINGERPRINT.wireName()));
    }

    /** The stream's proposals the API reports as proposed now (the first page: this boot makes few). */
    static int waitingInTheApi() {
        List<String> states = as("viewer").get("/dlq/" + ENCODED + "/proposals?count=100").jsonPath().getList("items.state");
        return (int) states.stream().filter("proposed"::equals).count();
    }

    /** The text of what {@code by} finds on a page whose live part replaces itself every second. */
    static String text(By by) {
        return browser.until(d -> {
            try {
                List<WebElement> found = d.findElements(by);
                return found.isEmpty() ? null : found.get(0).getText();
            } catch (StaleElementReferenceException e) {
                return null;
            }
        });
    }

    @Test
    void theOverviewsBadgeLeadsToAProposalItsCauseLinksToAndBack() throws Exception {
        String cause = parkSchemaJob("700");
        parkSchemaJob("701");
        String id = as("operator").contentType("application/json")
                .body("{\"filter\": {\"fingerprint\": \"" + cause + "\"}, \"canary\": 1, \"note\": \"sku field is back\"}")
                .post("/dlq/" + ENCODED + "/proposals").then().statusCode(201).extract().path("id");
        int waiting = waitingInTheApi();

        browser.login(base(), "approver", ApiUsers.password("approver"));
        assertEquals(waiting + " waiting", text(By.xpath("//tr[th/a[text()='" + DLQ + "']]//a[@class='badge']")));
        String total = text(By.id("waiting"));
        assertTrue(total.contains(DLQ + ": " + waiting), total);
        browser.screenshot("overview-waiting");

        // The badge leads to the stream's proposals.
        browser.click(By.xpath("//tr[th/a[text()='" + DLQ + "']]//a[@class='badge']"));
        browser.until(d -> d.getCurrentUrl().endsWith("/console/dlq/" + ENCODED + "/proposals"));
        browser.until(d -> d.findElement(By.linkText(id)));

        // The cause links to the proposal waiting for it, and the proposal back to the cause.
        browser.open(base() + "/console/dlq/" + ENCODED + "/causes");
        WebElement article = browser.until(d -> d.findElement(By.id("cause-" + cause)));
        WebElement link = article.findElement(By.cssSelector("a[data-proposal='" + id + "']"));
        assertTrue(link.getText().contains("waiting for approval: proposed by operator"), link.getText());
        ((JavascriptExecutor) browser.driver).executeScript("arguments[0].scrollIntoView()", article);
        browser.screenshot("causes-waiting");
        link.click();
        browser.until(d -> d.getCurrentUrl().endsWith("/proposals/" + id));
        browser.click(By.id("cause"));
        browser.until(d -> d.getCurrentUrl().endsWith("/causes#cause-" + cause));
        browser.until(d -> d.findElement(By.id("cause-" + cause)));

        // Decided, it waits no more: the badge counts one fewer and the cause no longer links to it.
        browser.open(base() + "/console/dlq/" + ENCODED + "/proposals/" + id);
        browser.click(By.id("reject"));
        browser.until(d -> "rejected".equals(d.findElement(By.id("state")).getText()));
        browser.open(base() + "/console");
        browser.until(d -> {
            try {
                List<WebElement> left = d.findElements(By.xpath("//tr[th/a[text()='" + DLQ + "']]//a[@class='badge']"));
                return waiting == 1 ? left.isEmpty() : !left.isEmpty() && left.get(0).getText().equals((waiting - 1) + " waiting");
            } catch (StaleElementReferenceException e) {
                return false; // the overview's live part was replaced in between
            }
        });
        browser.open(base() + "/console/dlq/" + ENCODED + "/causes");
        assertEquals(List.of(), browser.until(d -> d.findElement(By.id("cause-" + cause)))
                .findElements(By.cssSelector("a[data-proposal='" + id + "']")));
    }
}
