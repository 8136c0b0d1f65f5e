import { useId } from "react";
import { SURVEY_QUESTIONS, type DeliverySurvey, type SurveyQuestion } from "../../../../domain/contract/delivery-submissions.ts";

/** The delivery survey's questions (spec §7 delivery[survey][…]); every answer is optional. */
const QUESTIONS: Record<SurveyQuestion, string> = {
  have_you_left_prescription_at_pharmacy: "Have you left a prescription at the pharmacy?",
  use_delivery_service_again: "Would you use the delivery service again?",
  refill_reminder_opt_in: "Would you like refill reminders?",
};

export function SurveyQuestions({ survey, onChange }: { survey: DeliverySurvey; onChange: (answers: Partial<DeliverySurvey>) => void }) {
  const base = useId();
  return (
    <details className="survey section">
      <summary className="survey__summary">Ask the recipient (optional)</summary>
      {SURVEY_QUESTIONS.map((question) => (
        <fieldset key={question} className="fieldset">
          <legend className="field__label">{QUESTIONS[question]}</legend>
          <div className="choices choices--inline">
            {([true, false] as const).map((answer) => (
              <label key={String(answer)} className="choice">
                <input
                  type="radio"
                  name={`${base}-${question}`}
                  checked={survey[question] === answer}
                  onChange={() => onChange({ [question]: answer })}
                />
                <span>{answer ? "Yes" : "No"}</span>
              </label>
            ))}
          </div>
        </fieldset>
      ))}
    </details>
  );
}
