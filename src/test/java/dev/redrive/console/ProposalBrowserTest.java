package dev.redrive.console;

import static dev.redrive.testing.Api.as;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebElement;

import dev.redrive.deadletter.RecordField;
import dev.redrive.testing.ApiProfile;
import dev.redrive.testing.Await;
import dev.redrive.testing.Browser;
import dev.redrive.testing.Own;
import dev.redrive.testing.Streams;
import dev.redrive.testing.TestQueue;
import io.quarkus.redis.datasource.stream.StreamMessage;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/**
 * An operator on call finds a proposed redrive from the console's overview, in a real browser
 * (Debian's chromium): the stream's badge leads to its proposals, the cause the proposal targets
 * links to it, the proposal links back to its cause, and once it is decided the badge and the
 * link are gone; a proposal is approved in the console by another operator, never by its
 * proposer. Screenshots go to target/console-screenshots/.
 */
@QuarkusTest
@TestProfile(ApiProfile.class)
class ProposalBrowserTest {

    final Browser browser = Browser.session();

    @Inject
    @Own("deli")
    TestQueue deli;

    /** Parks a job of the schema cause through the worker; its fingerprint. */
    String parkSchemaJob(String order) {
        String originId = deli.add(Map.of("cause", "schema", "order", order));
        StreamMessage<String, String, byte[]> parked = Await.value("job " + originId + " parked", Browser.BOUND,
                () -> deli.parked(originId).orElse(null));
        return Streams.text(parked.payload().get(RecordField.FINGERPRINT.wireName()));
    }

    /** The stream's proposals the API reports as proposed now (the first page: this boot makes few). */
    int waitingInTheApi() {
        List<String> states = as("viewer").get(deli.dlqPath() + "/proposals?count=100").jsonPath().getList("items.state");
        return (int) states.stream().filter("proposed"::equals).count();
    }

    /** The text of what {@code by} finds on a page whose live part replaces itself every second. */
    String text(By by) {
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
                .post(deli.dlqPath() + "/proposals").then().statusCode(201).extract().path("id");
        int waiting = waitingInTheApi();

        browser.login("approver");
        assertEquals(waiting + " waiting", text(By.xpath("//tr[th/a[text()='" + deli.dlq() + "']]//a[@class='badge']")));
        String total = text(By.id("waiting"));
        assertTrue(total.contains(deli.dlq() + ": " + waiting), total);
        browser.screenshot("overview-waiting");

        // The badge leads to the stream's proposals.
        browser.click(By.xpath("//tr[th/a[text()='" + deli.dlq() + "']]//a[@class='badge']"));
        browser.until(d -> d.getCurrentUrl().endsWith("/console" + deli.dlqPath() + "/proposals"));
        browser.until(d -> d.findElement(By.linkText(id)));

        // The cause links to the proposal waiting for it, and the proposal back to the cause.
        browser.open("/console" + deli.dlqPath() + "/causes");
        WebElement article = browser.until(d -> d.findElement(By.id("cause-" + cause)));
        WebElement link = article.findElement(By.cssSelector("a[data-proposal='" + id + "']"));
        assertTrue(link.getText().contains("waiting for approval: proposed by operator"), link.getText());
        ((JavascriptExecutor) browser.driver()).executeScript("arguments[0].scrollIntoView()", article);
        browser.screenshot("causes-waiting");
        link.click();
        browser.until(d -> d.getCurrentUrl().endsWith("/proposals/" + id));
        browser.click(By.id("cause"));
        browser.until(d -> d.getCurrentUrl().endsWith("/causes#cause-" + cause));
        browser.until(d -> d.findElement(By.id("cause-" + cause)));

        // Decided, it waits no more: the badge counts one fewer and the cause no longer links to it.
        browser.open("/console" + deli.dlqPath() + "/proposals/" + id);
        browser.click(By.id("reject"));
        browser.until(d -> "rejected".equals(d.findElement(By.id("state")).getText()));
        browser.open("/console");
        browser.until(d -> {
            try {
                List<WebElement> left = d.findElements(By.xpath("//tr[th/a[text()='" + deli.dlq() + "']]//a[@class='badge']"));
                return waiting == 1 ? left.isEmpty() : !left.isEmpty() && left.get(0).getText().equals((waiting - 1) + " waiting");
            } catch (StaleElementReferenceException e) {
                return false; // the overview's live part was replaced in between
            }
        });
        browser.open("/console" + deli.dlqPath() + "/causes");
        assertEquals(List.of(), browser.until(d -> d.findElement(By.id("cause-" + cause)))
                .findElements(By.cssSelector("a[data-proposal='" + id + "']")));
    }

    @Test
    void aProposalIsApprovedInTheConsoleByAnotherOperatorNeverByItsProposer() throws Exception {
        String id = as("operator").contentType("application/json").body("{\"filter\": {\"origin\": \"{deli}nowhere\"}, \"canary\": 1, "
                        + "\"note\": \"provider fixed at 14:02\"}")
                .post(deli.dlqPath() + "/proposals").then().statusCode(201).extract().path("id");
        String page = "/console" + deli.dlqPath() + "/proposals/" + id;

        browser.login("operator");
        browser.open(page);
        WebElement own = browser.until(d -> d.findElement(By.id("approve")));
        assertFalse(own.isEnabled(), "the proposer's own Approve is disabled");
        assertFalse(browser.driver().findElement(By.id("reject")).isEnabled());
        assertTrue(browser.driver().findElement(By.id("why-disabled")).getText().contains("you proposed it"));

        browser.login("approver");
        browser.open("/console" + deli.dlqPath() + "/proposals");
        browser.click(By.linkText(id));
        browser.until(d -> d.findElement(By.id("approve")).isEnabled());
        assertEquals("provider fixed at 14:02", browser.driver().findElement(By.id("why")).getText());
        assertEquals("operator", browser.driver().findElement(By.id("proposer")).getText());
        assertEquals("0", browser.driver().findElement(By.id("parked-since")).getText());
        browser.screenshot("proposal");
        browser.click(By.id("approve"));
        browser.until(d -> d.getCurrentUrl().contains("/redrives/"));
        browser.open(page);
        assertEquals("approved", browser.until(d -> d.findElement(By.id("state"))).getText());
        assertTrue(browser.driver().findElement(By.id("decided")).getText().startsWith("approver"));
        assertEquals(List.of(), browser.driver().findElements(By.id("approve")), "decided once: no buttons");
    }
}
