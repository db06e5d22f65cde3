package org.ferry.scheduler.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.ferry.api.domain.FilterRules;
import org.ferry.api.domain.FilterRules.Method;
import org.ferry.api.domain.FilterRules.Rule;
import org.ferry.api.domain.FilterRules.Type;
import org.junit.jupiter.api.Test;

/** The Globus filter_rules semantics the crawl relies on (service-semantics b.2). */
class FilterRulesTest {

    @Test
    void firstMatchWinsAndNoMatchIncludes() {
        FilterRules rules = FilterRules.of(
                List.of(new Rule(Method.INCLUDE, Type.FILE, "*.h5"), new Rule(Method.EXCLUDE, Type.FILE, "*")));
        assertThat(rules.includes("run1.h5", false)).isTrue();
        assertThat(rules.includes("notes.txt", false)).isFalse();
        // the rules name files only: a directory matches none and is included
        assertThat(rules.includes("notes.txt", true)).isTrue();
    }

    @Test
    void globsKnowClassesNegationAndQuestionMarksAndBracesAreLiteral() {
        FilterRules rules = FilterRules.of(List.of(
                new Rule(Method.EXCLUDE, null, "run[0-9]?.dat"),
                new Rule(Method.EXCLUDE, null, "[!a]*.log"),
                new Rule(Method.EXCLUDE, null, "{a,b}")));
        assertThat(rules.includes("run12.dat", false)).isFalse();
        assertThat(rules.includes("run1.dat", false)).isTrue();
        assertThat(rules.includes("b.log", false)).isFalse();
        assertThat(rules.includes("a.log", false)).isTrue();
        assertThat(rules.includes("{a,b}", true)).isFalse();
        assertThat(rules.includes("a", true)).isTrue();
    }

    @Test
    void storedFormRoundTripsInOrder() {
        FilterRules rules = FilterRules.of(
                List.of(new Rule(Method.EXCLUDE, Type.DIR, "scratch"), new Rule(Method.INCLUDE, null, "*.h5")));
        assertThat(FilterRules.fromJson(rules.toJson()).rules()).isEqualTo(rules.rules());
        assertThat(FilterRules.fromJson(null).isEmpty()).isTrue();
    }

    @Test
    void namesWithSlashesAndBrokenGlobsAreRefused() {
        assertThatThrownBy(() -> FilterRules.of(List.of(new Rule(Method.EXCLUDE, null, "a/b"))))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> FilterRules.of(List.of(new Rule(Method.EXCLUDE, null, "[a-"))))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
