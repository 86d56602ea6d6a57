package dev.redrive.redrive;

import java.text.Normalizer;
import java.util.Locale;

/**
 * Whether two names are one person, for four eyes (a proposer never decides their own proposal).
 * Names are compared after one normalisation, the same wherever they are compared (the proposal
 * scripts through the key stored with a proposal, the console's "you proposed it"): white space
 * around them dropped, compatibility forms folded (NFKC) and case folded. A JWT whose upn is
 * "operator " or "Operator" is the same person as "operator": a false "same person" only asks for
 * another approver, while a false "different person" would let one person approve their own.
 */
public final class FourEyes {

    private FourEyes() {
    }

    /** The name as four eyes compares it. */
    public static String key(String name) {
        String folded = Normalizer.normalize(name == null ? "" : name, Normalizer.Form.NFKC).strip();
        // Upper then lower folds what lower-casing alone keeps apart (the German sharp s and SS, the Greek final sigma).
        return folded.toUpperCase(Locale.ROOT).toLowerCase(Locale.ROOT);
    }

    public static boolean samePerson(String a, String b) {
        return key(a).equals(key(b));
    }
}
