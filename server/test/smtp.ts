/** A real SMTP server on loopback that keeps what it receives, for tests that follow emailed links. */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface SmtpCapture {
  url: string;
  mails: ReceivedMail[];
  /**
   * Addresses the server refuses at RCPT TO (550) while they are in this set: a send that fails for one
   * recipient, as a full mailbox or a bounced domain does.
   */
  refuse: Set<string>;
  /** Mails to one address, newest last. */
  to(address: string): ReceivedMail[];
  /** The first link in the newest mail to an address that contains `pathPart`. */
  linkTo(address: string, pathPart: string): string;
  close(): Promise<void>;
}

function decodeQuotedPrintable(text: string): string {
  const bytes = text
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

function decodeHeaderWords(value: string): string {
  return value.replace(/=\?utf-8\?([bq])\?([^?]*)\?=/gi, (_m, kind: string, data: string) =>
    kind.toLowerCase() === 'b'
      ? Buffer.from(data, 'base64').toString('utf8')
      : decodeQuotedPrintable(data.replace(/_/g, ' ')),
  );
}

interface Part {
  headers: Record<string, string>;
  body: string;
}

function splitPart(raw: string): Part {
  const [head = '', ...rest] = raw.split(/\r?\n\r?\n/);
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { headers, body: rest.join('\n\n') };
}

function decodeBody(part: Part): string {
  const encoding = (part.headers['content-transfer-encoding'] ?? '').toLowerCase();
  if (encoding === 'quoted-printable') return decodeQuotedPrintable(part.body);
  if (encoding === 'base64') return Buffer.from(part.body.replace(/\s+/g, ''), 'base64').toString('utf8');
  return part.body;
}

/** Enough of MIME for the mails nodemailer writes: headers, and text/html parts of a multipart body. */
function parseMessage(raw: string): ReceivedMail {
  const message = splitPart(raw);
  const parts: Part[] = [];
  const boundary = message.headers['content-type']?.match(/boundary="?([^";]+)"?/)?.[1];
  if (boundary) {
    for (const chunk of message.body.split(`--${boundary}`).slice(1)) {
      if (!chunk.startsWith('--')) parts.push(splitPart(chunk.replace(/^\r?\n/, '')));
    }
  } else {
    parts.push(message);
  }
  const find = (type: string) =>
    parts.find((p) => (p.headers['content-type'] ?? 'text/plain').startsWith(type));
  const text = find('text/plain');
  const html = find('text/html');
  const to = message.headers['to'] ?? '';
  return {
    to: (to.match(/<([^>]+)>/)?.[1] ?? to).trim().toLowerCase(),
    subject: decodeHeaderWords(message.headers['subject'] ?? ''),
    text: text ? decodeBody(text).trim() : '',
    html: html ? decodeBody(html).trim() : '',
  };
}

export async function startSmtpCapture(options: { saveTo?: string } = {}): Promise<SmtpCapture> {
  if (options.saveTo) mkdirSync(options.saveTo, { recursive: true });
  const mails: ReceivedMail[] = [];
  const refuse = new Set<string>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (!refuse.has(address.address.toLowerCase())) return callback();
      const error = Object.assign(new Error(`mailbox unavailable: ${address.address}`), {
        responseCode: 550,
      });
      callback(error);
    },
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('error', callback);
      stream.on('end', () => {
        const mail = parseMessage(Buffer.concat(chunks).toString('utf8'));
        mails.push(mail);
        // Journeys run in other processes: they read each mail from its own file.
        if (options.saveTo) {
          writeFileSync(
            path.join(options.saveTo, `${Date.now()}-${mails.length}.json`),
            JSON.stringify(mail),
          );
        }
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const to = (address: string) => mails.filter((m) => m.to === address.toLowerCase());
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    refuse,
    to,
    linkTo(address, pathPart) {
      const mail = to(address).at(-1);
      if (!mail) throw new Error(`no mail to ${address}`);
      const link = mail.text.match(/https?:\/\/\S+/g)?.find((l) => l.includes(pathPart));
      if (!link) throw new Error(`no link containing ${pathPart} in the mail to ${address}: ${mail.text}`);
      return link;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
