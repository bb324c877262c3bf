import {
  type ContactNoteRequest,
  type ContactReplyRequest,
  contactNoteRequestSchema,
  contactReplyRequestSchema,
  NOTE_MAX_LENGTH,
  REPLY_MAX_LENGTH,
} from '@bytegate/contracts/admin-support';
import { zodResolver } from '@hookform/resolvers/zod';
import { SendIcon, StickyNoteIcon } from 'lucide-react';
import { type FormEvent, type KeyboardEvent, type ReactNode, useId, useState } from 'react';
import { type UseFormRegisterReturn, useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { errorMessage } from '../../../api/api-client.ts';
import { useAddContactNote, useReplyToContact } from '../../../api/use-admin-support.ts';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { Label } from '../../../components/ui/label.tsx';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../../components/ui/tabs.tsx';
import { Textarea } from '../../../components/ui/textarea.tsx';

interface ThreadComposerProps {
  messageId: string;
  /** Who a reply goes to. */
  name: string;
  email: string;
}

/**
 * What staff write on a thread: a reply mailed to the sender, or an internal note only staff see. Two
 * tabs, each its own form, so a note can never go out by mistake; Ctrl+Enter (⌘+Enter) sends either.
 */
export function ThreadComposer({ messageId, name, email }: ThreadComposerProps) {
  const [tab, setTab] = useState<'reply' | 'note'>('reply');
  return (
    <Card aria-labelledby="thread-composer-title">
      <h2 id="thread-composer-title" className="sr-only">
        Write
      </h2>
      <Tabs value={tab} onValueChange={(value) => setTab(value as 'reply' | 'note')} className="p-5 sm:px-6">
        <TabsList aria-label="Write a reply or a note" className="w-full sm:w-auto">
          <TabsTrigger value="reply" className="flex-1 sm:flex-none">
            <SendIcon className="size-4" aria-hidden="true" />
            Reply
          </TabsTrigger>
          <TabsTrigger value="note" className="flex-1 sm:flex-none">
            <StickyNoteIcon className="size-4" aria-hidden="true" />
            Internal note
          </TabsTrigger>
        </TabsList>
        <TabsContent value="reply">
          <ReplyForm messageId={messageId} name={name} email={email} />
        </TabsContent>
        <TabsContent value="note">
          <NoteForm messageId={messageId} />
        </TabsContent>
      </Tabs>
    </Card>
  );
}

/** Ctrl+Enter or ⌘+Enter in the text area sends its form. */
function submitOnModEnter(event: KeyboardEvent<HTMLTextAreaElement>) {
  if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
    event.preventDefault();
    event.currentTarget.form?.requestSubmit();
  }
}

function ReplyForm({ messageId, name, email }: ThreadComposerProps) {
  const reply = useReplyToContact(messageId);
  const [serverError, setServerError] = useState<string | null>(null);
  const form = useForm<ContactReplyRequest>({
    resolver: zodResolver(contactReplyRequestSchema),
    defaultValues: { body: '' },
  });
  const onSubmit = form.handleSubmit(async (values) => {
    setServerError(null);
    try {
      await reply.mutateAsync(values);
      form.reset();
      toast.success(`Reply sent to ${email}`);
    } catch (error) {
      setServerError(errorMessage(error, 'The reply could not be sent. Please try again.'));
    }
  });
  return (
    <EntryForm
      label={`Reply to ${name}`}
      hint={`Emailed to ${email} with their message quoted below it; the message is then marked answered.`}
      maxLength={REPLY_MAX_LENGTH}
      length={(form.watch('body') ?? '').length}
      error={form.formState.errors.body?.message}
      serverError={serverError}
      submit={
        <Button type="submit" isLoading={form.formState.isSubmitting}>
          {form.formState.isSubmitting ? null : <SendIcon aria-hidden="true" />}
          Send reply
        </Button>
      }
      onSubmit={onSubmit}
      field={form.register('body')}
      placeholder={`Hello ${name}, …`}
    />
  );
}

function NoteForm({ messageId }: { messageId: string }) {
  const note = useAddContactNote(messageId);
  const [serverError, setServerError] = useState<string | null>(null);
  const form = useForm<ContactNoteRequest>({
    resolver: zodResolver(contactNoteRequestSchema),
    defaultValues: { body: '' },
  });
  const onSubmit = form.handleSubmit(async (values) => {
    setServerError(null);
    try {
      await note.mutateAsync(values);
      form.reset();
      toast.success('Note added');
    } catch (error) {
      setServerError(errorMessage(error, 'The note could not be added. Please try again.'));
    }
  });
  return (
    <EntryForm
      label="Internal note"
      hint="Only staff see notes; the customer is never sent one."
      maxLength={NOTE_MAX_LENGTH}
      length={(form.watch('body') ?? '').length}
      error={form.formState.errors.body?.message}
      serverError={serverError}
      submit={
        <Button type="submit" variant="secondary" isLoading={form.formState.isSubmitting}>
          {form.formState.isSubmitting ? null : <StickyNoteIcon aria-hidden="true" />}
          Add note
        </Button>
      }
      onSubmit={onSubmit}
      field={form.register('body')}
      placeholder="What the next person on this thread should know"
    />
  );
}

interface EntryFormProps {
  label: string;
  hint: string;
  maxLength: number;
  length: number;
  error: string | undefined;
  serverError: string | null;
  submit: ReactNode;
  onSubmit: (event?: FormEvent) => Promise<void>;
  field: UseFormRegisterReturn<'body'>;
  placeholder: string;
}

function EntryForm({
  label,
  hint,
  maxLength,
  length,
  error,
  serverError,
  submit,
  onSubmit,
  field,
  placeholder,
}: EntryFormProps) {
  const id = useId();
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-3">
      {serverError ? <Alert tone="error">{serverError}</Alert> : null}
      <div className="space-y-1.5">
        <Label htmlFor={id}>{label}</Label>
        <Textarea
          id={id}
          rows={6}
          maxLength={maxLength}
          placeholder={placeholder}
          aria-invalid={error ? true : undefined}
          aria-describedby={[error ? `${id}-error` : undefined, `${id}-hint`].filter(Boolean).join(' ')}
          onKeyDown={submitOnModEnter}
          {...field}
        />
        {error ? (
          <p id={`${id}-error`} role="alert" className="text-sm text-red-600">
            {error}
          </p>
        ) : null}
      </div>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <p className="flex gap-3 text-xs text-gray-600">
          <span id={`${id}-hint`}>{hint}</span>
          <span className="shrink-0 tabular-nums" aria-hidden="true">
            {length.toLocaleString('en-US')}/{maxLength.toLocaleString('en-US')}
          </span>
        </p>
        {submit}
      </div>
    </form>
  );
}
