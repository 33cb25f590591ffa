'use client';
import { CopyButton } from '@/components/ui/copy-button';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';

const NODE = `// npm install standardwebhooks express
import express from 'express';
import { Webhook } from 'standardwebhooks';

const wh = new Webhook(process.env.ROOMTONE_WEBHOOK_SECRET); // the whsec_… secret, whole

express()
  .post('/hooks/roomtone', express.raw({ type: 'application/json' }), (req, res) => {
    let event;
    try {
      // Verify the raw body before parsing it: signature, and a timestamp within 5 minutes.
      event = wh.verify(req.body.toString('utf8'), req.headers);
    } catch {
      return res.status(400).end();
    }
    // The same webhook-id can arrive again (at least once): skip ids already handled.
    if (event.type === 'generation.succeeded') console.log(event.data.object.output[0]?.url);
    res.status(204).end(); // answer 2xx within 10 s; queue slow work
  })
  .listen(3001);`;

const PYTHON = `# pip install standardwebhooks flask
import os
from flask import Flask, request
from standardwebhooks.webhooks import Webhook

wh = Webhook(os.environ["ROOMTONE_WEBHOOK_SECRET"])  # the whsec_… secret, whole
app = Flask(__name__)

@app.post("/hooks/roomtone")
def roomtone():
    try:
        # Verify the raw body before parsing it: signature, and a timestamp within 5 minutes.
        event = wh.verify(request.get_data(), dict(request.headers))
    except Exception:
        return "", 400
    # The same webhook-id can arrive again (at least once): skip ids already handled.
    if event["type"] == "generation.succeeded":
        print(event["data"]["object"]["output"][0]["url"])
    return "", 204  # answer 2xx within 10 s; queue slow work`;

function Code({ code, label }: { code: string; label: string }) {
  return (
    // min-w-0: a flex item is otherwise as wide as its longest line, and the code scrolls the page instead of its box.
    <div className="flex min-w-0 flex-col gap-2">
      <pre className="min-w-0 overflow-x-auto rounded-md border bg-muted p-4 text-xs" aria-label={label} tabIndex={0}>
        <code>{code}</code>
      </pre>
      <CopyButton text={code} label={`Copy ${label}`} copied={`${label} copied`} className="self-start" />
    </div>
  );
}

/** How a receiver verifies deliveries, with the official Standard Webhooks libraries (the list's and each endpoint's last section). */
export function VerificationSection() {
  return (
    <section className="mt-10 flex flex-col gap-3" aria-labelledby="verify-heading">
      <h2 id="verify-heading" className="text-lg font-semibold">
        Verify deliveries in your receiver
      </h2>
      <div className="flex flex-col gap-2">
        <p className="text-sm text-muted-foreground">
          Each delivery carries <code>webhook-id</code>, <code>webhook-timestamp</code> and <code>webhook-signature</code> headers. The official{' '}
          <code>standardwebhooks</code> libraries verify them with the endpoint&apos;s signing secret. During the 24 hours after a rotation the signature header
          holds two signatures (new and previous secret); the libraries accept either.
        </p>
        <Tabs defaultValue="node">
          <TabsList aria-label="Receiver language">
            <TabsTrigger value="node">Node.js</TabsTrigger>
            <TabsTrigger value="python">Python</TabsTrigger>
          </TabsList>
          <TabsContent value="node">
            <Code code={NODE} label="Node.js receiver" />
          </TabsContent>
          <TabsContent value="python">
            <Code code={PYTHON} label="Python receiver" />
          </TabsContent>
        </Tabs>
      </div>
    </section>
  );
}
