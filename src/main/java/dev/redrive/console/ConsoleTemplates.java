package dev.redrive.console;

import io.quarkus.qute.CheckedTemplate;
import io.quarkus.qute.TemplateInstance;

/**
 * The console's pages, templates/console/*.html, checked against these signatures when the
 * service is built. HTML templates escape every value; a {@code $name} method renders one
 * fragment of its page (the parts that refresh themselves).
 */
@CheckedTemplate(basePath = "console")
final class ConsoleTemplates {

    private ConsoleTemplates() {
    }

    static native TemplateInstance overview(Me me, OverviewPage.View view);

    static native TemplateInstance overview$live(OverviewPage.View view);

    static native TemplateInstance causes(Me me, CausesPage.View view);

    static native TemplateInstance entries(Me me, EntriesPage.View view);

    static native TemplateInstance entry(Me me, EntryPage.View view);

    static native TemplateInstance replay(Me me, EntryActions.Preview preview);

    static native TemplateInstance redrive(Me me, RedrivePages.View view);

    static native TemplateInstance redrive$live(Me me, RedrivePages.View view);

    static native TemplateInstance proposals(Me me, ProposalPages.ListView view);

    static native TemplateInstance proposal(Me me, ProposalPages.View view);

    static native TemplateInstance login(boolean failed);
}
