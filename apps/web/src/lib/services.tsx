import { createContext, ReactNode, useContext } from 'react';
import type { AuditClient } from './api-client';
import type { AppLocation } from './app-location';
import type { Session } from './session';

/** What the views reach the service through: the typed API client, the session and where the app runs. */
export interface Services {
  api: AuditClient;
  session: Session;
  location: AppLocation;
}

const ServicesContext = createContext<Services | null>(null);

export function ServicesProvider({ services, children }: { services: Services; children: ReactNode }) {
  return <ServicesContext.Provider value={services}>{children}</ServicesContext.Provider>;
}

export function useServices(): Services {
  const services = useContext(ServicesContext);
  if (!services) throw new Error('useServices outside ServicesProvider');
  return services;
}
