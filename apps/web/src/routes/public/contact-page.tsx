import { MESSAGE_MAX_LENGTH } from '@bytegate/contracts/constants';
import { contactRequestSchema } from '@bytegate/contracts/contact';
import { messages } from '@bytegate/contracts/messages';
import { CheckCircle2Icon, ClockIcon, MailIcon, ShieldCheckIcon } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { api, errorMessage } from '../../api/api-client.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { Label } from '../../components/ui/label.tsx';
import { Textarea } from '../../components/ui/textarea.tsx';
import { useHydrated } from '../../lib/use-hydrated.ts';

const FAQ: Array<{ question: string; answer: string }> = [
  {
    question: 'Can I get my money back?',
    answer:
      'Yes: within 7 days of a purchase, write to us and we refund the traffic you have not used. The 7-day money-back guarantee covers every pool.',
  },
  {
    question: 'How fast do you answer?',
    answer:
      'Support works around the clock, every day of the year. Most messages get an answer within an hour.',
  },
  {
    question: 'Does my traffic expire?',
    answer: 'No. GB you buy stay on your plan until you use them, however long that takes.',
  },
  {
    question: 'Can you open a blocked website or port for me?',
    answer:
      'Often, yes. Send the exact domain or port and what you use it for; we may ask for a KYC check. Approved unblocks apply to your account within a second.',
  },
  {
    question: 'I need more concurrent connections or a custom plan.',
    answer:
      'Tell us the plan, the volume and the number of threads you need. Larger and enterprise customers get custom pricing and premium residential IPs.',
  },
  {
    question: 'How do I pay?',
    answer:
      'Top up your balance with cryptocurrency through either of our two payment providers, then buy GB from the balance. Every purchase has an invoice under Orders.',
  },
];

interface Draft {
  name: string;
  email: string;
  subject: string;
  message: string;
}
const EMPTY: Draft = { name: '', email: '', subject: '', message: '' };
const REQUIRED = ['name', 'email', 'message'] as const;
type FieldErrors = Partial<Record<keyof Draft, string>>;

/**
 * The draft's refusals by field, by the server's own schema (so a rule lives once): each is shown
 * under its field, once. Empty required fields are marked and said together, in the spec's words.
 */
function checkDraft(draft: Draft): { fields: FieldErrors; missing: Array<keyof Draft> } {
  const missing = REQUIRED.filter((key) => !draft[key].trim());
  if (missing.length > 0) {
    return { fields: {}, missing };
  }
  const result = contactRequestSchema.safeParse(draft);
  const fields: FieldErrors = {};
  for (const issue of result.success ? [] : result.error.issues) {
    const key = issue.path[0];
    if (typeof key === 'string' && key in EMPTY && !fields[key as keyof Draft]) {
      fields[key as keyof Draft] = issue.message;
    }
  }
  return { fields, missing: [] };
}

/** Contact: the message form (POST /api/contact) and the questions people ask most. */
export function ContactPage() {
  const messageId = useId();
  const isHydrated = useHydrated();
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const problemId = useId();
  const [problem, setProblem] = useState<string | null>(null);
  const [missing, setMissing] = useState<Array<keyof Draft>>([]);
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [isSending, setIsSending] = useState(false);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const set = (key: keyof Draft) => (event: { target: { value: string } }) => {
    setDraft((current) => ({ ...current, [key]: event.target.value }));
    setProblem(null);
    setMissing((current) => current.filter((item) => item !== key));
    setFieldErrors((current) => ({ ...current, [key]: undefined }));
  };
  /** A field's refusal, or (for an empty required one) the note above the button that names the rule. */
  const invalid = (key: keyof Draft) =>
    fieldErrors[key]
      ? { error: fieldErrors[key] }
      : missing.includes(key)
        ? { 'aria-invalid': true, 'aria-describedby': problemId }
        : {};

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const checked = checkDraft(draft);
    setMissing(checked.missing);
    setFieldErrors(checked.fields);
    if (checked.missing.length > 0) {
      setProblem(messages.contactRequired);
      return;
    }
    if (Object.values(checked.fields).some(Boolean)) {
      setProblem(null);
      return;
    }
    setIsSending(true);
    try {
      await api.contact.send({
        name: draft.name,
        email: draft.email,
        message: draft.message,
        ...(draft.subject.trim() ? { subject: draft.subject } : {}),
      });
      toast.success(messages.contactSent);
      setSentTo(draft.email.trim());
      setDraft(EMPTY);
    } catch (error) {
      // Said once, above the button (no toast repeating it).
      setProblem(`${messages.contactFailed}: ${errorMessage(error, 'Please try again in a moment.')}`);
    } finally {
      setIsSending(false);
    }
  };

  return (
    <div className="mx-auto max-w-6xl px-4 py-12 sm:px-6 lg:py-16">
      <h1 className="text-3xl font-semibold tracking-tight text-gray-900 sm:text-4xl">Contact</h1>
      <p className="mt-3 max-w-2xl text-lg text-gray-600">
        Questions, unblock requests, custom volumes: write to us and a person answers, day or night.
      </p>
      <div className="mt-10 grid gap-10 lg:grid-cols-[minmax(0,1fr)_24rem]">
        <section
          aria-labelledby="contact-form-title"
          className="rounded-2xl border border-gray-200 p-6 shadow-sm sm:p-8"
        >
          <h2 id="contact-form-title" className="text-lg font-semibold text-gray-900">
            Send us a message
          </h2>
          {sentTo ? (
            <div
              role="status"
              className="mt-4 flex items-start gap-3 rounded-lg bg-emerald-50 p-4 text-emerald-800"
            >
              <CheckCircle2Icon className="mt-0.5 size-5 shrink-0" aria-hidden="true" />
              <p>
                <span className="font-semibold">{messages.contactSent}</span> We will answer at {sentTo}.
              </p>
            </div>
          ) : null}
          <form onSubmit={onSubmit} noValidate className="mt-6" aria-label="Contact form">
            {/* Fields are React's to keep: typing goes into them once the app runs the prerendered page. */}
            <fieldset disabled={!isHydrated} className="space-y-5">
              <div className="grid gap-5 sm:grid-cols-2">
                <FormField
                  label="Name"
                  autoComplete="name"
                  value={draft.name}
                  onChange={set('name')}
                  {...invalid('name')}
                />
                <FormField
                  label="Email"
                  type="email"
                  autoComplete="email"
                  value={draft.email}
                  onChange={set('email')}
                  {...invalid('email')}
                />
              </div>
              <FormField
                label="Subject"
                hint="(optional)"
                value={draft.subject}
                onChange={set('subject')}
                {...invalid('subject')}
              />
              <div className="space-y-1.5">
                <Label htmlFor={messageId}>Message</Label>
                <Textarea
                  id={messageId}
                  rows={6}
                  maxLength={MESSAGE_MAX_LENGTH}
                  value={draft.message}
                  onChange={set('message')}
                  aria-invalid={fieldErrors.message || missing.includes('message') ? true : undefined}
                  aria-describedby={
                    fieldErrors.message
                      ? `${messageId}-error`
                      : missing.includes('message')
                        ? problemId
                        : undefined
                  }
                />
                {fieldErrors.message ? (
                  <p id={`${messageId}-error`} role="alert" className="text-sm text-red-600">
                    {fieldErrors.message}
                  </p>
                ) : null}
              </div>
              {problem ? (
                <Alert tone="error" id={problemId}>
                  {problem}
                </Alert>
              ) : null}
              <Button type="submit" disabled={isSending} className="w-full sm:w-auto">
                <MailIcon aria-hidden="true" />
                {isSending ? 'Sending…' : 'Send Message'}
              </Button>
            </fieldset>
          </form>
        </section>
        <div className="space-y-8">
          <ul className="space-y-4 text-sm text-gray-700">
            <li className="flex gap-3">
              <ClockIcon className="size-5 shrink-0 text-brand-600" aria-hidden="true" />
              24/7 support, every day of the year.
            </li>
            <li className="flex gap-3">
              <ShieldCheckIcon className="size-5 shrink-0 text-brand-600" aria-hidden="true" />
              7-day money-back guarantee on every purchase.
            </li>
          </ul>
          <section aria-labelledby="faq-title">
            <h2 id="faq-title" className="text-lg font-semibold text-gray-900">
              Frequently asked questions
            </h2>
            <div className="mt-4 divide-y divide-gray-200 rounded-xl border border-gray-200">
              {FAQ.map((item) => (
                <details key={item.question} className="group px-4 py-3">
                  <summary className="cursor-pointer list-none text-sm font-medium text-gray-900 marker:hidden">
                    {item.question}
                  </summary>
                  <p className="mt-2 text-sm text-gray-600">{item.answer}</p>
                </details>
              ))}
            </div>
            <p className="mt-4 text-sm text-gray-600">
              Setting up? The{' '}
              <Link to="/help" className="font-medium text-brand-600 hover:text-brand-700">
                Help Center
              </Link>{' '}
              has guides for every step.
            </p>
          </section>
        </div>
      </div>
    </div>
  );
}
