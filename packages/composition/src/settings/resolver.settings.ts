import { z } from 'zod';
import { settingDocs } from './setting-docs.js';
import { commaList, type Parsed } from './setting-schemas.js';

/** The variables of this section, as RUNNER.md names them (documented where declared). */
export const resolverVariables = {
  SVC_RESOLVER_DOMAIN: z
    .string()
    .regex(
      /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/,
      'must be a lower-case domain name',
    )
    .default('dns.svc.example')
    .register(settingDocs, {
      description:
        'resolver domain of profile endpoints: DoH `https://<domain>/<id>`, DoT/DoQ `<id>.<domain>`',
    }),
  SVC_ANYCAST_V6_PREFIXES: commaList
    .pipe(
      z.array(
        z
          .string()
          .regex(
            /^[0-9a-f]{1,4}:[0-9a-f]{1,4}:[0-9a-f]{1,4}::(\/48)?$/,
            'must list IPv6 /48 prefixes such as 2001:db8:100::/48',
          )
          .transform((prefix) => prefix.replace(/\/48$/, '')),
      ),
    )
    .default(['2001:db8:100::', '2001:db8:200::'])
    .register(settingDocs, {
      defaultText: '`2001:db8:100::/48,2001:db8:200::/48`',
      description:
        "anycast IPv6 /48s; each gives one resolver address per profile, the id's six bytes in its low 48 bits",
    }),
  SVC_ANYCAST_V4: commaList
    .pipe(z.array(z.ipv4('must list IPv4 addresses')))
    .default(['192.0.2.53', '198.51.100.53'])
    .register(settingDocs, {
      defaultText: '`192.0.2.53,198.51.100.53`',
      description: 'anycast IPv4 resolvers (Do53 clients are identified by a linked IP)',
    }),
};

/** Where the resolver fleet answers (profile endpoints). */
export interface ResolverSettings {
  domain: string;
  ipv6Prefixes: string[];
  ipv4Anycast: string[];
}

export function resolverSettings(raw: Parsed<typeof resolverVariables>): ResolverSettings {
  return {
    domain: raw.SVC_RESOLVER_DOMAIN,
    ipv6Prefixes: raw.SVC_ANYCAST_V6_PREFIXES,
    ipv4Anycast: raw.SVC_ANYCAST_V4,
  };
}
