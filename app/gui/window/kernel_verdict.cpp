// The kernel's one verdict (kernel_verdict.hpp).
#include "gui/window/kernel_verdict.hpp"

#include <algorithm>

namespace sv::gui {

namespace {

// The card's verdict word, as the card shows it.
KernelVerdict card_verdict(const std::string& verdict) {
  return {verdict_word(verdict), verdict == "correct" ? KernelVerdict::Good : KernelVerdict::Bad};
}

// A check part way: any case wrong or any hazard already makes it WRONG (no later case undoes it).
bool found_wrong(const cuda::CheckReport& r) {
  return !r.hazards.empty() || std::any_of(r.cases.begin(), r.cases.end(), [](const cuda::CheckCase& c) { return c.outcome != "correct"; });
}

}  // namespace

bool grade_is_current(const Ui& ui) {
  const auto& own = ui.lesson.own_kernel;
  const auto& g = ui.kernel.grade;
  return own && g && g->kernel->text == own->text && g->launch == ui.lesson.request.launch;
}

KernelVerdict kernel_verdict(const Ui& ui) {
  if (!ui.lesson.own_kernel) return {};
  // The card's, even where the lesson's one run failed (a block the run cannot infer, which the
  // check picks itself): the card ran the text on every case.
  if (grade_is_current(ui)) return card_verdict(ui.kernel.grade->report.verdict);
  if (const std::optional<GradeProgress> p = ui.kernel.checker.progress()) {
    if (found_wrong(p->partial)) return {"WRONG", KernelVerdict::Bad};
    if (p->planned == 0) return {"checking...", KernelVerdict::Neutral};
    return {"checking: " + std::to_string(p->run) + " of " + std::to_string(p->planned) + " cases", KernelVerdict::Neutral};
  }
  if (!ui.lesson.error.empty()) return {"ERROR", KernelVerdict::Bad};  // the text asked for does not run
  return {"not checked yet", KernelVerdict::Neutral};
}

void say_kernel_ran(Ui& ui) {
  const Lesson& l = ui.lesson;
  if (!l.ran_kernel || !l.view || !l.error.empty()) return;
  const bool as_sum = l.view->trace.meta.op != l.request.op.value_or(OpKind::Sum);
  say(ui, "ran " + l.ran_kernel->name + ": " + std::to_string(l.view->trace.steps.size()) + " steps, " +
              std::to_string(l.view->hazards.size()) + " hazards in this run" +
              (as_sum ? " (as a sum: its values cannot run as the symbolic x0..x3)" : "") + "; report card: " + kernel_verdict(ui).text,
      kernel_verdict(ui).tone == KernelVerdict::Bad);
}

}  // namespace sv::gui
