// Runs the PayPal stand-in (tests/helpers/paypal.ts) for the e2e suite on PAYPAL_STANDIN_PORT, until it is stopped.
import { startPaypalStandIn } from '../helpers/paypal.ts';

const standIn = await startPaypalStandIn({ port: Number(process.env.PAYPAL_STANDIN_PORT) });
console.log(`PayPal stand-in at ${standIn.url}`);
