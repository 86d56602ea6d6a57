package dev.redrive.console;

import static dev.redrive.testing.Api.as;
import static dev.redrive.testing.Streams.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;

import dev.redrive.testing.ApiProfile;
import dev.redrive.testing.Browser;
import dev.redrive.testing.Own;
import dev.redrive.testing.PatchSeed;
import dev.redrive.testing.Redrives;
import dev.redrive.testing.TestQueue;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/**
 * A patched bulk redrive in the console, in a real browser (Debian's chromium): the operator types
 * a patch into the entries page's form, the dry run shows it as a diff of each changed field on
 * the first entries, and "Redrive as counted and previewed" moves them patched; an approver sees
 * the same diff on a proposal's page. Screenshots go to target/console-screenshots/.
 */
@QuarkusTest
@TestProfile(ApiProfile.class)
class PatchBrowserTest {

    static final String ORIGIN = "{patch}ai";

    final Browser browser = Browser.session();

    @Inject
    @Own("patch")
    TestQueue queue;

    /** The preview's diff lines of one field of one previewed entry, as the page shows them. */
    List<String> diff(String entry, String field) {
        WebElement sample = browser.until(d -> d.findElement(By.cssSelector("section.diff[data-entry='" + entry + "']")));
        WebElement name = sample.findElement(By.cssSelector("p[data-field='" + field + "']"));
        return name.findElement(By.xpath("following-sibling::pre[1]")).findElements(By.tagName("span")).stream()
                .map(WebElement::getText).toList();
    }

    @Test
    void aDryRunShowsThePatchAsADiffAndItsConfirmationMovesThePatchedJobs() throws Exception {
        List<String> parked = PatchSeed.park(queue, ORIGIN, "console", 6);
        browser.login("operator");
        browser.open("/console" + queue.dlqPath() + "/entries?job=console");
        browser.click(By.cssSelector("details.action summary"));
        browser.driver().findElement(By.name("patch")).sendKeys(PatchSeed.PATCH);
        browser.driver().findElement(By.cssSelector("form.redrive input[name=maxPerSecond]")).clear();
        browser.driver().findElement(By.cssSelector("form.redrive input[name=maxPerSecond]")).sendKeys("0");
        browser.driver().findElement(By.cssSelector("form.redrive input[name=canary]")).clear();
        browser.driver().findElement(By.cssSelector("form.redrive input[name=canary]")).sendKeys("0");
        browser.click(By.cssSelector("form.redrive button[value=true]"));

        browser.until(d -> d.getCurrentUrl().contains("/redrives/"));
        assertEquals(List.of("- gpt-old", "+ gpt-new"), diff(parked.get(1), "model"));
        assertEquals(List.of("- x"), diff(parked.get(1), "legacy"), "removed");
        assertEquals(List.of("+ yes"), diff(parked.get(1), "added"), "added");
        assertEquals(List.of("- " + PatchSeed.INPUT, "+ " + PatchSeed.PATCHED_INPUT), diff(parked.get(1), "input"));
        String first = browser.driver().findElement(By.cssSelector("section.diff[data-entry='" + parked.get(0) + "'] h4"))
                .getText();
        assertTrue(first.endsWith("skipped, patch: field 'input' is missing"), first);
        browser.screenshot("redrive-patch-preview");
        assertEquals(6, new Redrives(queue).listed("job=console").size(), "a dry run moves nothing");

        browser.click(By.id("confirm"));
        browser.until(d -> "completed".equals(d.findElement(By.id("state")).getText()));
        assertEquals(List.of(parked.get(0)), new Redrives(queue).listed("job=console"), "the one without input stays");
        long patched = queue.streams().all(ORIGIN).stream()
                .filter(m -> parked.contains(text(m.payload().get("replay-of")).replaceFirst("^.*/", "")))
                .filter(m -> PatchSeed.PATCHED_INPUT.equals(text(m.payload().get("input"))))
                .filter(m -> "gpt-new".equals(text(m.payload().get("model"))) && m.payload().get("legacy") == null)
                .count();
        assertEquals(5, patched);
    }

    @Test
    void anApproverSeesTheProposedPatchAsADiff() throws Exception {
        List<String> parked = PatchSeed.park(queue, ORIGIN, "approve", 3);
        String id = as("operator").contentType("application/json")
                .body("{\"filter\": {\"job\": \"approve\"}, \"patch\": " + PatchSeed.PATCH + "}")
                .post(queue.dlqPath() + "/proposals").then().statusCode(201).extract().path("id");
        browser.login("approver");
        browser.open("/console" + queue.dlqPath() + "/proposals/" + id);
        assertEquals(List.of("- gpt-old", "+ gpt-new"), diff(parked.get(2), "model"));
        assertTrue(browser.driver().findElement(By.id("patch-summary")).getText().contains("patch below"));
        browser.screenshot("proposal-patch-preview");
    }
}
