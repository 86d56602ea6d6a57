package dev.redrive.console;

import static dev.redrive.testing.Api.as;
import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import jakarta.inject.Inject;

import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.redrive.deadletter.EntryFilter;
import dev.redrive.redrive.Proposal;
import dev.redrive.redrive.Proposals;
import dev.redrive.redrive.RedriveSpec;
import dev.redrive.testing.ApiProfile;
import dev.redrive.testing.Await;
import dev.redrive.testing.DeadLetterSeed;
import dev.redrive.testing.Own;
import dev.redrive.testing.ProposalExpiry;
import dev.redrive.testing.TestQueue;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;

/**
 * The console tells of proposed redrives that wait: a badge per dead-letter stream on the
 * overview (and their total), counted from the waiting set so a page reads at most
 * {@link Proposals#WAITING_LIMIT} + 1 ids per stream; a cause links to the proposals of it, and a
 * proposal back to its cause. Decided and expired proposals leave the badge and the links, and the
 * gauge {@code redrive_proposals_waiting} that pages someone (RedriveProposalWaiting). Proposals
 * redrive made itself (proposer {@link Proposal#REDRIVE}) are marked where they are listed.
 */
@QuarkusTest
@TestProfile(ApiProfile.class)
class WaitingProposalsTest {

    static final String ORIGIN = "{wait}waiting";
    /** The cause DeadLetterSeed.parkMany parks under. */
    static final String CAUSE = "bbbbbbbbbbbb";

    @Inject
    @Own("wait")
    TestQueue wait;

    @Inject
    Proposals proposals;

    String api;
    String pages;
    Pattern rowBadge;

    @BeforeEach
    void seed() {
        api = wait.dlqPath() + "/proposals";
        pages = "/console" + wait.dlqPath();
        rowBadge = Pattern.compile("<a class=\"badge\" href=\"" + Pattern.quote(pages + "/proposals")
                + "\" title=\"[^\"]*\">([0-9]+\\+?) waiting</a>");
        DeadLetterSeed.parkMany(wait.redis(), wait.dlq(), ORIGIN, 3);
    }

    String propose(String filter) {
        return as("operator").contentType("application/json").body("{\"filter\": " + filter + ", \"note\": \"badge\"}")
                .post(api).then().statusCode(201).extract().path("id");
    }

    String byCause() {
        return propose("{\"fingerprint\": \"" + CAUSE + "\"}");
    }

    String byOrigin() {
        return propose("{\"origin\": \"" + ORIGIN + "\"}");
    }

    void reject(String id) {
        as("approver").contentType("application/json").body("{}").post(api + "/" + id + "/reject").then().statusCode(200);
    }

    /** The stream's proposals the API reports as proposed now (every page). */
    List<String> waitingInTheApi() {
        List<String> ids = new ArrayList<>();
        String after = null;
        do {
            JsonPath page = as("viewer").get(api + "?count=100" + (after == null ? "" : "&after=" + after)).jsonPath();
            for (int i = 0; i < page.getList("items").size(); i++) {
                if ("proposed".equals(page.getString("items[" + i + "].state"))) {
                    ids.add(page.getString("items[" + i + "].id"));
                }
            }
            after = page.getString("next");
        } while (after != null);
        return ids;
    }

    /** The stream's badge on the overview's live part, or "" when it has none. */
    String badge(ConsoleClient console) {
        String html = console.get("/console/live").then().statusCode(200).extract().asString();
        Matcher m = rowBadge.matcher(html);
        return m.find() ? m.group(1) : "";
    }

    @Test
    void theOverviewCountsWhatWaitsAndForgetsDecidedAndExpiredProposals() {
        ConsoleClient viewer = ConsoleClient.login("viewer");
        List<String> mine = List.of(byCause(), byOrigin(), byCause());
        int waiting = waitingInTheApi().size();
        assertTrue(waiting >= 3);
        assertEquals(Integer.toString(waiting), badge(viewer));
        String overview = viewer.get("/console").then().statusCode(200).extract().asString();
        assertTrue(overview.contains("id=\"waiting\""), "the total above the streams");
        assertTrue(overview.contains("data-waiting=\"" + wait.dlq() + "\""), "the total names the stream and links to it");

        reject(mine.get(0));
        assertEquals(Integer.toString(waiting - 1), badge(viewer), "a decided proposal waits no more");

        ProposalExpiry.expireAllWaiting(wait.redis(), wait.dlq());
        assertEquals(List.of(), waitingInTheApi(), "all expired");
        assertEquals("", badge(viewer), "an expired proposal waits no more");
        assertFalse(viewer.get("/console/live").then().extract().asString().contains("data-waiting=\"" + wait.dlq() + "\""),
                "the total no longer names the stream");
    }

    @Test
    void aCauseLinksToItsWaitingProposalsAndAProposalBackToItsCause() {
        ConsoleClient viewer = ConsoleClient.login("viewer");
        String ofCause = byCause();
        String ofOrigin = byOrigin();
        String causes = page(viewer, pages + "/causes").then().statusCode(200).extract().asString();
        String article = article(causes, CAUSE);
        assertTrue(article.contains("href=\"" + pages + "/proposals/" + ofCause + "\""), article);
        assertFalse(article.contains(ofOrigin), "a proposal that names no cause is linked from none");
        assertTrue(causes.contains("href=\"" + pages + "/proposals\""), "the page links to the stream's proposals");

        String proposal = page(viewer, pages + "/proposals/" + ofCause).then().statusCode(200).extract().asString();
        assertTrue(proposal.contains("id=\"cause\" href=\"" + pages + "/causes#cause-" + CAUSE + "\""), proposal);
        assertTrue(proposal.contains("href=\"" + pages + "/entries?fingerprint=" + CAUSE + "\""), proposal);
        String other = page(viewer, pages + "/proposals/" + ofOrigin).then().statusCode(200).extract().asString();
        assertFalse(other.contains("id=\"cause\""), "no cause to link back to");

        reject(ofCause);
        reject(ofOrigin);
        assertFalse(article(page(viewer, pages + "/causes").then().extract().asString(), CAUSE).contains(ofCause),
                "a decided proposal is no longer linked from its cause");
    }

    @Test
    void aStreamsBadgeCountsAtMostTheLimitAndSaysWhenMoreWait() {
        ConsoleClient viewer = ConsoleClient.login("viewer");
        List<String> made = new ArrayList<>();
        try {
            int waiting = waitingInTheApi().size();
            while (waiting + made.size() <= Proposals.WAITING_LIMIT) {
                made.add(byOrigin());
            }
            assertEquals(Proposals.WAITING_LIMIT + "+", badge(viewer));
            String causes = page(viewer, pages + "/causes").then().statusCode(200).extract().asString();
            assertTrue(causes.contains(Proposals.WAITING_LIMIT + "+ waiting"), "the causes page reads at most the limit");
        } finally {
            made.forEach(this::reject);
        }
    }

    /** redrive_proposals_waiting{dlq} of the stream, as the management port's /q/metrics shows it; null when absent. */
    Long gauge() {
        int port = ConfigProvider.getConfig().getValue("quarkus.management.test-port", Integer.class);
        String metrics = given().port(port).get("/q/metrics").then().statusCode(200).extract().asString();
        Matcher m = Pattern.compile("(?m)^redrive_proposals_waiting\\{dlq=\"" + Pattern.quote(wait.dlq())
                + "\"} ([0-9.]+)$").matcher(metrics);
        return m.find() ? (long) Double.parseDouble(m.group(1)) : null;
    }

    @Test
    void theGaugeCountsTheStreamsWaitingProposalsUntilTheyAreDecidedOrExpire() {
        byCause();
        String rejected = byOrigin();
        int waiting = waitingInTheApi().size();
        Await.until("redrive_proposals_waiting at " + waiting, () -> Long.valueOf(waiting).equals(gauge()));
        reject(rejected);
        Await.until("redrive_proposals_waiting at " + (waiting - 1), () -> Long.valueOf(waiting - 1).equals(gauge()));
        ProposalExpiry.expireAllWaiting(wait.redis(), wait.dlq());
        Await.until("redrive_proposals_waiting at 0", () -> Long.valueOf(0).equals(gauge()));
    }

    @Test
    void proposalsRedriveMadeItselfAreMarkedWhereWaitingProposalsAreListed() {
        ConsoleClient viewer = ConsoleClient.login("viewer");
        String byPerson = byCause();
        Proposal byRedrive = proposals.propose(wait.dlq(), new RedriveSpec(new EntryFilter(null, null, null, CAUSE, null,
                null, null, null), 10, false, 1, 0.5, "after an outage"), Proposal.REDRIVE);
        String marker = "<span class=\"by-redrive\"";
        String causes = page(viewer, pages + "/causes").then().statusCode(200).extract().asString();
        String article = article(causes, CAUSE);
        String ours = item(article, "data-proposal=\"" + byRedrive.id() + "\"", "</li>");
        assertTrue(ours.contains(marker + " title=\"") && ours.contains(">(by redrive)</span>"), ours);
        assertFalse(item(article, "data-proposal=\"" + byPerson + "\"", "</li>").contains(marker), "a person's proposal is not marked");

        String list = page(viewer, pages + "/proposals").then().statusCode(200).extract().asString();
        assertTrue(item(list, byRedrive.id() + "</a>", "</tr>").contains(marker), "the proposals list marks it");
        assertFalse(item(list, byPerson + "</a>", "</tr>").contains(marker), "and only it");
        String one = page(viewer, pages + "/proposals/" + byRedrive.id()).then().statusCode(200).extract().asString();
        assertTrue(one.contains(marker), "its own page says so too");
        reject(byRedrive.id());
        reject(byPerson);
    }

    /** The part of {@code html} from {@code start} to the next {@code end}. */
    static String item(String html, String start, String end) {
        int from = html.indexOf(start);
        assertTrue(from >= 0, "no " + start + " in " + html);
        return html.substring(from, html.indexOf(end, from));
    }

    /** A console page whose path is already encoded (the stream's name is). */
    static io.restassured.response.Response page(ConsoleClient console, String path) {
        return console.request().urlEncodingEnabled(false).get(path);
    }

    /** The Causes page's article of one cause. */
    static String article(String page, String fingerprint) {
        int start = page.indexOf("<article class=\"cause\" id=\"cause-" + fingerprint + "\"");
        assertTrue(start >= 0, "no cause " + fingerprint + " on the page");
        return page.substring(start, page.indexOf("</article>", start));
    }
}
