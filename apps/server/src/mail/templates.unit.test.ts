import { describe, expect, it } from 'vitest';
import {
  contactReply,
  emailChangeConfirmation,
  emailChangeRequested,
  emailVerification,
  escapeHtml,
  passwordReset,
  signInLink,
  threadRequestDecision,
} from './templates.ts';

describe('escapeHtml', () => {
  it('escapes every character that could open markup or leave an attribute', () => {
    expect(escapeHtml(`<a href="x" onclick='y'>&amp;</a>`)).toBe(
      '&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;',
    );
  });
});

describe('contactReply', () => {
  const props = {
    name: 'Ann',
    subject: 'Invoice',
    originalMessage: 'Line one\nLine two\n\nSecond paragraph',
    reply: 'First\nstill first\n\nSecond',
  };

  it('answers on the subject, the reply first and the message quoted, in text and HTML', () => {
    const mail = contactReply(props);
    expect(mail.subject).toBe('Re: Invoice');
    expect(mail.text).toBe(
      [
        'Hello Ann,',
        '',
        'First',
        'still first',
        '',
        'Second',
        '',
        'You wrote:',
        '> Line one',
        '> Line two',
        '> ',
        '> Second paragraph',
        '',
        '-- ',
        'The Bytegate team',
        '',
      ].join('\n'),
    );
    expect(mail.html).toContain('<p>First<br>\nstill first</p>\n<p>Second</p>');
    expect(mail.html).toContain('<blockquote');
    expect(mail.html).toContain('<p>Line one<br>\nLine two</p>\n<p>Second paragraph</p></blockquote>');
  });

  it('does not stack Re: and names the product when the message had no subject', () => {
    expect(contactReply({ ...props, subject: 'RE: re: Invoice' }).subject).toBe('Re: Invoice');
    expect(contactReply({ ...props, subject: '  ' }).subject).toBe('Re: your message to Bytegate');
  });

  it('escapes every value in the HTML, and only there', () => {
    const mail = contactReply({
      name: '<img src=x onerror=alert(1)>',
      subject: '</title><script>',
      originalMessage: '"quoted" & <i>',
      reply: "it's <fine>",
    });
    expect(mail.html).not.toMatch(/<img|<script|<i>|<fine>/);
    expect(mail.html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(mail.html).toContain('<title>&lt;/title&gt;&lt;script&gt;</title>');
    expect(mail.html).toContain('&quot;quoted&quot; &amp; &lt;i&gt;');
    expect(mail.html).toContain('it&#39;s &lt;fine&gt;');
    expect(mail.text).toContain("it's <fine>");
    expect(mail.subject).toBe('Re: </title><script>');
  });
});

describe('threadRequestDecision', () => {
  it('says the new limit when approved, with staff note', () => {
    const mail = threadRequestDecision({
      name: 'Ann',
      planLabel: 'Residential',
      approved: true,
      threadLimit: 500,
      message: 'Happy scraping.',
    });
    expect(mail.subject).toBe('Thread limit raised: Residential');
    expect(mail.text).toBe(
      'Hello Ann,\n\nWe raised the thread limit of your plan Residential to 500 concurrent connections.\n\nHappy scraping.\n\n-- \nThe Bytegate team\n',
    );
    expect(mail.html).toContain(
      'We raised the thread limit of your plan <strong>Residential</strong> to <strong>500 concurrent connections</strong>.',
    );
    expect(mail.html).toContain('<p>Happy scraping.</p>');
  });

  it('says the limit stays when declined, and leaves out an empty note', () => {
    const mail = threadRequestDecision({
      name: 'Ann',
      planLabel: 'DC <1>',
      approved: false,
      threadLimit: 1,
      message: '  ',
    });
    expect(mail.subject).toBe('Thread limit request declined: DC <1>');
    expect(mail.text).toBe(
      'Hello Ann,\n\nWe could not raise the thread limit of your plan DC <1>; it stays at 1 concurrent connection.\n\n-- \nThe Bytegate team\n',
    );
    expect(mail.html).toContain('<strong>DC &lt;1&gt;</strong>');
  });

  it('lays out accessible HTML: a language, a title, the product name, no images or tables', () => {
    const { html } = threadRequestDecision({ name: 'A', planLabel: 'P', approved: true, threadLimit: 2 });
    expect(html).toMatch(/^<!doctype html>\n<html lang="en">/);
    expect(html).toContain('<meta charset="utf-8">');
    expect(html).toContain('<title>Thread limit raised</title>');
    expect(html).toContain('>Bytegate</p>');
    expect(html).not.toMatch(/<img|<table|<script/);
  });
});

describe('the mailed links', () => {
  const link = 'https://bytegate.example/reset-password?token=abc_DEF-123&x="y"';
  const hostile = '<img src=x onerror=alert(1)>';

  it('puts the link in the text as it is, and in the HTML as a button and as text, escaped', () => {
    for (const mail of [
      passwordReset({ name: 'Ann', link, validMinutes: 30 }),
      emailVerification({ name: 'Ann', link, validDays: 7 }),
      emailChangeConfirmation({ name: 'Ann', newEmail: 'ann@new.example', link, validHours: 24 }),
    ]) {
      expect(mail.text).toContain(`\n${link}\n`);
      expect(mail.text.startsWith('Hello Ann,\n\n')).toBe(true);
      expect(mail.text.endsWith('-- \nThe Bytegate team\n')).toBe(true);
      const escaped = 'https://bytegate.example/reset-password?token=abc_DEF-123&amp;x=&quot;y&quot;';
      expect(mail.html.split(`href="${escaped}"`)).toHaveLength(3);
      expect(mail.html).not.toContain(link);
    }
  });

  it('says how long each link works and what to do if it was not you', () => {
    const reset = passwordReset({ name: 'Ann', link, validMinutes: 30 });
    expect(reset.subject).toBe('Reset your Bytegate password');
    expect(reset.text).toContain('The link works for 30 minutes, once.');
    expect(reset.text).toContain('your proxy credentials keep working');
    expect(reset.text).toContain('If you did not ask for this, ignore this email');
    expect(emailVerification({ name: 'Ann', link, validDays: 7 }).text).toContain(
      'The link works for 7 days.',
    );
    const change = emailChangeConfirmation({
      name: 'Ann',
      newEmail: 'ann@new.example',
      link,
      validHours: 24,
    });
    expect(change.subject).toBe('Confirm your new email for Bytegate');
    expect(change.text).toContain('The link works for 24 hours.');
    const notice = emailChangeRequested({ name: 'Ann', newEmail: 'ann@new.example' });
    expect(notice.subject).toBe('Your Bytegate email is about to change');
    expect(notice.text).toContain('asked to change its email to ann@new.example.');
    expect(notice.text).toContain('change your password');
  });

  it('escapes names and addresses in the HTML', () => {
    const mails = [
      passwordReset({ name: hostile, link, validMinutes: 30 }),
      emailVerification({ name: hostile, link, validDays: 7 }),
      emailChangeConfirmation({ name: hostile, newEmail: `"${hostile}"@x.example`, link, validHours: 24 }),
      emailChangeRequested({ name: hostile, newEmail: `"${hostile}"@x.example` }),
    ];
    for (const mail of mails) {
      expect(mail.html).not.toContain('<img');
      expect(mail.html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    }
  });

  it('marks the link of each as its secret, and the mails without a one-time link as carrying none', () => {
    expect(passwordReset({ name: 'Ann', link, validMinutes: 30 }).secrets).toEqual([link]);
    expect(emailVerification({ name: 'Ann', link, validDays: 7 }).secrets).toEqual([link]);
    expect(
      emailChangeConfirmation({ name: 'Ann', newEmail: 'ann@new.example', link, validHours: 24 }).secrets,
    ).toEqual([link]);
    expect(
      signInLink({ name: 'Ann', link, validMinutes: 15, failures: 105, addresses: 105, lockedMinutes: 60 })
        .secrets,
    ).toEqual([link]);
    expect(emailChangeRequested({ name: 'Ann', newEmail: 'ann@new.example' }).secrets).toEqual([]);
    expect(contactReply({ name: 'Ann', subject: '', originalMessage: 'Hi', reply: 'Hello' }).secrets).toEqual(
      [],
    );
    expect(
      threadRequestDecision({ name: 'Ann', planLabel: 'Mobile', approved: true, threadLimit: 5 }).secrets,
    ).toEqual([]);
  });
});
